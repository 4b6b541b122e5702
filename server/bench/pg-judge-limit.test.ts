/**
 * `BENCHWORK_PROVIDER_CONCURRENCY` on PostgreSQL counts a judge's calls too, across worker
 * processes (issue 20; the tests are shared with sqlite-judge-limit.test.ts,
 * test-support/judge-limit.ts): two job workers, each its own queue connection, as two
 * `npm run worker` processes would be.
 */
import { openPgPool } from "@/db/pg/client";
import { benchJudgeKey } from "@/db/pg/judge-slots";
import { describePg } from "@/db/pg/test-support/database";
import { judgeLimitTests } from "./test-support/judge-limit";
import { pgBenchStore } from "./test-support/pg-bench-store";
import { startJobWorker } from "../job-worker";

describePg("the provider limit counts judge calls across job workers (PostgreSQL)", () => {
  const store = pgBenchStore(6);

  judgeLimitTests({
    db: store.db,
    startTwoWorkers: (env) => Promise.all([1, 2].map(() => startJobWorker(store.db(), { env, pollMs: 20, retryBaseDelayMs: 5, trialThreads: 1 }))),
    // The job worker's own read (db/pg/judge-slots.ts), on a connection of its own.
    judgeKeyOf: async (id) => {
      const pool = openPgPool(store.url(), 1);
      const client = await pool.connect();
      try {
        return await benchJudgeKey(client, id);
      } finally {
        client.release();
        await pool.end();
      }
    },
  });
});
