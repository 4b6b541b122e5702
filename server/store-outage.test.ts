/** A job worker's log during a PostgreSQL outage: one line when it starts, none per retry, one when the store is back. */
import { expect, it } from "vitest";
import { storeOutageLog } from "./store-outage";

it("logs one line when the store becomes unreachable, nothing per retry, one line when it is back; other errors whole", () => {
  const lines: unknown[][] = [];
  const log = storeOutageLog("benchwork job worker", "db.example:5432/benchwork", (...l) => lines.push(l));
  // drizzle wraps the driver's error: the reason is in its cause.
  const refused = Object.assign(new Error('Failed query: select "id" from "benches"'), {
    cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" }),
  });
  log.onError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }));
  for (let i = 0; i < 100; i++) log.onError(refused);
  log.onError(new Error("Connection terminated unexpectedly"));
  log.onRecovered();
  log.onRecovered();
  log.onError(refused);
  const bug = new TypeError("x is not a function");
  log.onError(bug);
  expect(lines).toEqual([
    [
      "benchwork job worker: the PostgreSQL store db.example:5432/benchwork is unreachable (terminating connection due to administrator command); retrying every few seconds",
    ],
    ["benchwork job worker: the PostgreSQL store db.example:5432/benchwork is reachable again"],
    ["benchwork job worker: the PostgreSQL store db.example:5432/benchwork is unreachable (connect ECONNREFUSED 10.0.0.5:5432); retrying every few seconds"],
    ["benchwork job worker:", bug],
  ]);
});
