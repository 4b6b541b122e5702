/**
 * `npm test`'s PostgreSQL: one throwaway cluster (pg-cluster.mjs) for the unit run, exported as
 * BENCHWORK_TEST_DATABASE_URL to every test process. Nothing starts when the variable is already set
 * (a cluster of your own) or under BENCHWORK_SKIP_PG=1. When PostgreSQL is not installed it says so
 * loudly; the PostgreSQL suites then fail (db/pg/test-support/database.ts), they are never skipped
 * quietly.
 */
import { MISSING_PG_MESSAGE, startCluster } from "./pg-cluster.mjs";

const banner = (log, lines) => log(["", "!".repeat(78), ...lines.map((l) => `!! ${l}`), "!".repeat(78), ""].join("\n"));

/**
 * Starts the cluster and sets `env.BENCHWORK_TEST_DATABASE_URL`.
 * @param {Record<string, string | undefined>} [env] process.env by default
 * @param {(line: string) => void} [log] where to say what it did (console.log by default)
 * @returns {Promise<{ stop: () => Promise<void> }>} `stop` stops it and removes the variable (a no-op when none started)
 */
export async function startTestCluster(env = process.env, log = console.log) {
  const none = { stop: async () => {} };
  if (env.BENCHWORK_SKIP_PG === "1") {
    banner(log, ["BENCHWORK_SKIP_PG=1: the PostgreSQL suites are SKIPPED."]);
    return none;
  }
  if (env.BENCHWORK_TEST_DATABASE_URL?.trim()) return none;
  try {
    const cluster = await startCluster();
    env.BENCHWORK_TEST_DATABASE_URL = cluster.url;
    log(`npm test: throwaway PostgreSQL cluster at ${cluster.url}`);
    return {
      stop: async () => {
        delete env.BENCHWORK_TEST_DATABASE_URL;
        await cluster.stop();
      },
    };
  } catch (e) {
    banner(log, [
      "The PostgreSQL test cluster could not start; the PostgreSQL suites will FAIL.",
      e.message === MISSING_PG_MESSAGE ? MISSING_PG_MESSAGE : String(e.message).split("\n")[0],
    ]);
    return none;
  }
}
