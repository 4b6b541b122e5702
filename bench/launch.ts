/**
 * Launch speed (issue 20): `launchBench` storing a bench of N cases × C recorded candidates (the
 * bench, its manifest and its queued trials in one transaction), on SQLite (a migrated temp file, as
 * the server uses it) and, with `--pg`, on PostgreSQL (a throwaway database: the cluster of
 * `BENCHWORK_TEST_DATABASE_URL`, else one started for the run). Prints the milliseconds per launch,
 * median and range of `--rounds` launches (each a new bench over the same cases).
 *
 * Run: `npx tsx bench/launch.ts [--cases 10000] [--candidates 2] [--repeats 1] [--rounds 3] [--pg]`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { closeStore, openPgStore } from "../db/pg/store";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/database";
import { launchBench } from "../db/queries/benches";
import { recordedLaunch, seedCases } from "../db/queries/test-support/bench-launch";
import { trials } from "../db/schema";

const args = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const CASES = arg("cases", 10_000);
const CANDIDATES = arg("candidates", 2);
const REPEATS = arg("repeats", 1);
const ROUNDS = arg("rounds", 3);

/** Launches ROUNDS benches on `db` and prints their times. */
async function measure(store: string, db: Db): Promise<void> {
  const { promptId, cases } = await seedCases(db, "launch", CASES);
  const names = Array.from({ length: CANDIDATES }, (_, i) => `r${i + 1}`);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const input = recordedLaunch("launch", promptId, cases, { launchKey: `launch-${round}`, candidates: names, repeats: REPEATS });
    const t0 = performance.now();
    const { id } = await launchBench(db, input);
    times.push(performance.now() - t0);
    const [stored] = await db.select({ n: count() }).from(trials).where(eq(trials.benchId, id));
    if (stored.n !== input.plan.trialCount) throw new Error(`bench #${id} stored ${stored.n} trials, expected ${input.plan.trialCount}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const trialCount = CASES * CANDIDATES * REPEATS;
  console.log(
    `${store}: launch of ${CASES} cases × ${CANDIDATES} candidates × ${REPEATS} repeats (${trialCount} trials): median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms (${sorted[0].toFixed(0)}–${sorted[sorted.length - 1].toFixed(0)} ms over ${ROUNDS} rounds)`,
  );
}

const dir = mkdtempSync(path.join(tmpdir(), "bw-launch-"));
try {
  const db = openDatabase(path.join(dir, "launch.db"));
  migrateDatabase(db);
  await measure("sqlite", db);
  db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (args.includes("--pg")) {
  const database = await createTestDatabase();
  const db = openPgStore(database.url, 2);
  try {
    await measure("postgres", db);
  } finally {
    await closeStore(db);
    await database.drop();
    await stopOwnCluster();
  }
}
