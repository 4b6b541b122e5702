/**
 * `benchwork bench run` on PostgreSQL rides out a short outage of the store (tester's report #2):
 * the store goes away right after the launch (every connection through a relay dropped, new ones
 * refused) and comes back once the command has said it is unreachable. The command says so on
 * stderr, waits, says when the store is back and ends as usual with its report and --json-output.
 * Before, its first failed progress poll ended it with exit 1 and 74 lines of stack, and no JSON.
 */
import { expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { main } from "../main";
import { gsm8kBenchRun } from "../testing";
import { describePg } from "@/db/pg/test-support/database";
import { useDemoPgStore } from "../test-support/demo-pg-store";

/** A TCP relay to `target` (host:port) on a free loopback port that can drop every connection and refuse new ones. */
async function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    setDown(d: boolean) {
      down = d;
      if (d) for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describePg("benchwork bench run through a PostgreSQL outage", () => {
  const databaseUrl = useDemoPgStore();

  it("says the store is unreachable, waits, says when it is back, and finishes with its report and JSON", async () => {
    const real = new URL(databaseUrl());
    const proxy = await relay(real);
    const viaRelay = new URL(real);
    viaRelay.host = `127.0.0.1:${proxy.port}`;
    const saved = process.env.BENCHWORK_DATABASE_URL;
    process.env.BENCHWORK_DATABASE_URL = viaRelay.toString();
    const out = path.join(mkdtempSync(path.join(tmpdir(), "benchwork-bench-outage-")), "gsm8k.json");
    const stdout: string[] = [];
    const stderr: string[] = [];
    let outage = 0;
    const io = {
      tty: false,
      // The first line (the launch's) starts the outage; the command's "unreachable" line ends it.
      out: (l: string) => {
        if (stdout.push(l) === 1) proxy.setDown(true);
      },
      err: (l: string) => {
        stderr.push(l);
        if (l.includes("is unreachable") && outage++ === 0) proxy.setDown(false);
      },
    };
    try {
      const code = await main([...gsm8kBenchRun("model-6b-finetuning", "model-175b-verification"), "--json-output", out], io);
      const store = `127.0.0.1:${proxy.port}${real.pathname}`;
      expect(stderr.filter((l) => l.includes(store))).toEqual([
        expect.stringMatching(new RegExp(`^benchwork: the PostgreSQL store ${store.replace(/\./g, "\\.")} is unreachable \\(.+\\); waiting up to 120 s$`)),
        `benchwork: the PostgreSQL store ${store} is reachable again`,
      ]);
      expect(code).toBe(1);
      expect(existsSync(out)).toBe(true);
      const r = JSON.parse(readFileSync(out, "utf8"));
      expect(r.status).toBe("finished");
      expect(r.candidates.map((c: { label: string; scored: number }) => [c.label, c.scored])).toEqual([
        ["model-6b-finetuning", 200],
        ["model-175b-verification", 200],
      ]);
    } finally {
      process.env.BENCHWORK_DATABASE_URL = saved;
      await proxy.close();
    }
  }, 120_000);
});
