/**
 * `BENCHWORK_PROVIDER_CONCURRENCY` on SQLite counts a judge's calls too, across worker processes
 * (issue 20; the tests are shared with pg-judge-limit.test.ts, test-support/judge-limit.ts): two
 * bench workers (two claimers of the queue, each with its own claims, as two `npm run worker`
 * processes would be; one connection, as two in one process would block each other's synchronous
 * BEGIN).
 */
import { afterAll, describe } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";
import { benches } from "@/db/schema";
import { judgeProviderKeyOfStored } from "@/lib/bench/provider-key";
import { judgeLimitTests } from "./test-support/judge-limit";
import { startBenchWorker } from "../worker";

describe("the provider limit counts judge calls across job workers (SQLite)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-sqjudge-"));
  const db: Db = openDatabase(path.join(dir, "b.db"));
  migrateDatabase(db);
  afterAll(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  judgeLimitTests({
    db: () => db,
    startTwoWorkers: async (env) => [1, 2].map(() => startBenchWorker(db, { env, pollMs: 20, retryBaseDelayMs: 5, trialThreads: 0 })),
    judgeKeyOf: async (id) => {
      const [row] = await db.select({ judge: benches.judge }).from(benches).where(eq(benches.id, id));
      return judgeProviderKeyOfStored(row.judge);
    },
  });
});
