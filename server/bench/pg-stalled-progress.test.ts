/**
 * Progress on PostgreSQL after a worker died (issue 20): its claims hold their trials until the
 * lease runs out. Progress tells those trials apart from the ones live workers run, and says when
 * they run again, instead of a "claimed by workers" count that sits still for the whole lease.
 * Times are passed in (the claim's and the reader's), so nothing here waits on the clock.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { describePg } from "@/db/pg/test-support/database";
import { PgTrialJobQueue } from "@/db/pg/trial-job-queue";
import { getBenchProgress } from "@/db/queries/benches";
import { launchFromRequest } from "./prepare";
import { recordedRequest, recordedSuite } from "./test-support/recorded-bench";
import { pgBenchStore } from "./test-support/pg-bench-store";

describePg("bench progress with a dead worker's claims (PostgreSQL)", () => {
  // The store's hooks first: its beforeAll runs before this suite's, its afterAll after (Vitest's stack order).
  const store = pgBenchStore(4);
  let db: Db;
  let queue: PgTrialJobQueue;
  const LEASE = 10_000;

  beforeAll(async () => {
    db = store.db();
    queue = new PgTrialJobQueue({ url: store.url(), leaseMs: LEASE });
    await queue.start();
  }, 60_000);
  afterAll(async () => {
    await queue?.stop();
  }, 60_000);

  it("counts the trials a worker stopped renewing, and when they run again", async () => {
    const promptId = await recordedSuite(
      db,
      ["a", "b", "c", "d"].map((key) => ({ key, expected: "x", answers: { col: "x" } })),
    );
    const { id } = await launchFromRequest(db, recordedRequest(promptId, ["col"]), { env: {} });
    const t = Date.now();
    // Two workers claim two trials each; "dead" never renews, "live" renews a quarter lease later.
    expect(await queue.claim("dead", 2, t)).toHaveLength(2);
    expect(await queue.claim("live", 2, t)).toHaveLength(2);
    expect(await queue.heartbeat("live", t + LEASE * 0.6)).toBe(2);

    const soon = await getBenchProgress(db, id, { now: t + LEASE * 0.25, leaseMs: LEASE });
    expect(soon).toMatchObject({ running: 4, stalled: null });

    const later = await getBenchProgress(db, id, { now: t + LEASE * 0.6, leaseMs: LEASE });
    expect(later).toMatchObject({ running: 4, stalled: { trials: 2, runAgainAt: t + LEASE } });
  }, 60_000);
});
