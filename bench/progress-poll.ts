/**
 * The progress poll's server time on a big running bench (issue #20 / #16: what a running bench's
 * page asks every second, server/bench/progress-poll.ts; target ≲ 10 ms p95 at 20,000 trials):
 *
 *   npx tsx bench/progress-poll.ts [--trials 20000,100000] [--runs 200] [--store sqlite,postgres] [--before REV]
 *
 * Per store and trial count, seeds (rows inserted directly: no launch, no queue) a prompt with
 * trials / 10 cases and two candidates × 5 repeats, as three benches:
 * - "running bench": its launch run under way (60 % done, 2 % errored, 3 % kept from starting by
 *   the spend cap, 8 running, the rest queued);
 * - "rerun bench": a finished run that a rerun of its errored trials reopened (`addRerunTrials`, as
 *   the page's Rerun does: the launch's trials all ended, 2 % errored; the rerun's trials half
 *   done, 8 running, the rest queued);
 * - the same, reopened before the launch run's times were kept with the bench (`settings.launchRun`
 *   absent: this checkout reads them from the trials, as the older code always did).
 * Each poll runs `benchProgressPoll` in a process of its own (`--poller`: this checkout's code, and
 * with `--before REV` that commit's, from `git archive` in a temp folder with this checkout's
 * node_modules), which times it: its server time, not the parent's IPC. The rows are alternated
 * poll by poll (same load), after checking that every row of a bench gives the same figures.
 * PostgreSQL: a throwaway cluster (scripts/pg-cluster.mjs), or BENCHWORK_TEST_DATABASE_URL's.
 * Prints p50/p95/max and CPU per poll, with the load average.
 */
import { execSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createInterface } from "node:readline";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { rawRows } from "../db/dialect";
import { migrateDatabase, openDatabase, type Db } from "../db/client";
import { closeStore, openPgStore } from "../db/pg/store";
import { createTestDatabase, stopOwnCluster } from "../db/pg/test-support/test-database";
import { first } from "../db/rows";
import { benchCandidates, benchCases, benches, caseRevisions, cases, prompts, systems, trials } from "../db/schema";
import { benchProgressPoll } from "../server/bench/progress-poll";
import { addRerunTrials } from "../db/queries/bench-reruns";
import { getBench } from "../db/queries/benches";
import { describeTimes } from "./stats";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sizes = (opt("--trials") ?? "20000,100000").split(",").map(Number);
const runs = Number(opt("--runs") ?? 200) || 200;
const stores = (opt("--store") ?? "sqlite,postgres").split(",");
const REPEATS = 5;
const NOW = 1_700_000_000_000;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

type TrialRow = typeof trials.$inferInsert;

/** Inserts `rows` in chunks (both stores' parameter limits). */
async function insertAll<T extends Record<string, unknown>>(db: Db, table: Parameters<Db["insert"]>[0], rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insert(table).values(rows.slice(i, i + 500) as never);
}

/** A bench with two candidates over the cases of `revs` (its manifest; no trials yet); returns its id, candidate ids and bench case ids. */
async function insertBench(
  db: Db,
  promptId: number,
  key: string,
  revs: { caseId: number; revId: number }[],
  status: "running",
): Promise<{ id: number; candidateIds: number[]; benchCaseIds: number[] }> {
  const b = (await first(
    db
      .insert(benches)
      .values({
        systemId: "poll",
        promptId,
        title: key,
        status,
        launchKey: key,
        settings: JSON.stringify({ selection: { kind: "all" }, budget: null, repeats: REPEATS, concurrency: 8, timeoutMs: 30_000, maxSteps: 1 }),
        rubric: "[]",
        rubricHash: "h",
        baseline: '{"kind":"candidate","position":0}',
        trialCount: revs.length * 2 * REPEATS,
        createdAt: NOW,
        startedAt: NOW + 1_000,
      })
      .returning({ id: benches.id }),
  ))!;
  const candidateIds: number[] = [];
  for (const position of [0, 1])
    candidateIds.push(
      (await first(
        db
          .insert(benchCandidates)
          .values({ benchId: b.id, position, kind: "model", label: `m${position}` })
          .returning({ id: benchCandidates.id }),
      ))!.id,
    );
  const benchCaseIds: number[] = [];
  for (let i = 0; i < revs.length; i += 500) {
    const rows = await db
      .insert(benchCases)
      .values(
        revs.slice(i, i + 500).map((r, j) => ({
          benchId: b.id,
          position: i + j,
          caseId: r.caseId,
          caseRevisionId: r.revId,
          caseKey: `poll-${i + j}`,
          source: "custom",
          group: "explicit" as const,
          included: true,
        })),
      )
      .returning({ id: benchCases.id });
    benchCaseIds.push(...rows.map((r) => r.id));
  }
  return { id: b.id, candidateIds, benchCaseIds };
}

/** A trial's finished fields (done, error or a budget skip), `k` its index. */
function ended(k: number, status: "done" | "error" | "skipped", t0: number): Partial<TrialRow> {
  const startedAt = t0 + k * 10;
  if (status === "skipped") return { status, error: "budget", finishedAt: startedAt };
  return {
    status,
    workerId: "w",
    attempts: 1,
    startedAt,
    finishedAt: startedAt + 900,
    latencyMs: 900,
    costUsd: status === "done" ? 0.001 : null,
    passedChecks: status === "done" ? 2 : 0,
    failedChecks: status === "done" ? 1 : 0,
    error: status === "error" ? "HTTP 500" : null,
    output: status === "done" ? "answer" : null,
  };
}

/** Seeds both benches of `n` trials; returns their ids. */
async function seed(db: Db, n: number): Promise<{ running: number; rerun: { before: number; after: number } }> {
  const caseCount = n / (2 * REPEATS);
  await db.insert(systems).values({ id: "poll", name: "Poll", createdAt: NOW }).onConflictDoNothing();
  const prompt = (await first(
    db
      .insert(prompts)
      .values({ systemId: "poll", name: `p${n}`, createdAt: NOW })
      .returning({ id: prompts.id }),
  ))!;
  const revs: { caseId: number; revId: number }[] = [];
  for (let i = 0; i < caseCount; i += 500) {
    const cs = await db
      .insert(cases)
      .values(
        Array.from({ length: Math.min(500, caseCount - i) }, (_, j) => ({
          caseKey: `poll-${n}-${i + j}`,
          systemId: "poll",
          promptId: prompt.id,
          source: "custom" as const,
          createdAt: NOW,
          updatedAt: NOW,
        })),
      )
      .returning({ id: cases.id });
    const rs = await db
      .insert(caseRevisions)
      .values(cs.map((c) => ({ caseId: c.id, number: 1, input: "q", expected: "a", createdAt: NOW })))
      .returning({ id: caseRevisions.id, caseId: caseRevisions.caseId });
    revs.push(...rs.map((r) => ({ caseId: r.caseId, revId: r.id })));
  }
  // The running bench: by trial index, 60 % done, 2 % errored, 3 % budget skips, 8 running, the rest queued.
  const running = await insertBench(db, prompt.id, `poll-running-${n}`, revs, "running");
  const rows: TrialRow[] = [];
  let k = 0;
  for (const bc of running.benchCaseIds)
    for (const candidateId of running.candidateIds)
      for (let repeat = 0; repeat < REPEATS; repeat++, k++) {
        const share = k / n;
        const base = { benchId: running.id, candidateId, benchCaseId: bc, repeat };
        if (share < 0.6) rows.push({ ...base, ...ended(k, k % 50 === 0 ? "error" : "done", NOW + 2_000) } as TrialRow);
        else if (share < 0.63) rows.push({ ...base, ...ended(k, "skipped", NOW + 2_000) } as TrialRow);
        else if (share < 0.63 + 8 / n) rows.push({ ...base, status: "running", workerId: "w", attempts: 1, startedAt: NOW + 2_000 + k * 10 } as TrialRow);
        else rows.push({ ...base, status: "queued" } as TrialRow);
      }
  await insertAll(db, trials, rows);

  // The rerun benches: the launch ended (2 % errored), then a rerun of the errored trials reopened them
  // (addRerunTrials, as the page's Rerun does); half of the rerun's trials are done, 8 running.
  const rerun = { before: 0, after: 0 };
  for (const side of ["before", "after"] as const) {
    const b = await insertBench(db, prompt.id, `poll-rerun-${side}-${n}`, revs, "running");
    const launch: TrialRow[] = [];
    k = 0;
    for (const bc of b.benchCaseIds)
      for (const candidateId of b.candidateIds)
        for (let repeat = 0; repeat < REPEATS; repeat++, k++)
          launch.push({ benchId: b.id, candidateId, benchCaseId: bc, repeat, ...ended(k, k % 50 === 0 ? "error" : "done", NOW + 2_000) } as TrialRow);
    await insertAll(db, trials, launch);
    await db
      .update(benches)
      .set({ status: "finished", finishedAt: NOW + 2_000 + n * 10 + 1_000 })
      .where(eq(benches.id, b.id));
    const errored = await db
      .select({ id: trials.id, candidateId: trials.candidateId, benchCaseId: trials.benchCaseId, repeat: trials.repeat })
      .from(trials)
      .where(and(eq(trials.benchId, b.id), eq(trials.status, "error")))
      .orderBy(trials.id);
    const planned = errored.map((t) => ({
      candidateId: t.candidateId,
      benchCaseId: t.benchCaseId,
      repeat: t.repeat + REPEATS,
      rerun: "error" as const,
      rerunOf: t.id,
    }));
    await addRerunTrials(db, b.id, planned);
    const added = await db
      .select({ id: trials.id })
      .from(trials)
      .where(and(eq(trials.benchId, b.id), eq(trials.rerun, "error")))
      .orderBy(trials.id);
    const rerunStart = NOW + 10_000_000;
    for (const [i, t] of added.entries()) {
      if (i < added.length / 2)
        await db
          .update(trials)
          .set(ended(i, "done", rerunStart))
          .where(eq(trials.id, t.id));
      else if (i < added.length / 2 + 8)
        await db
          .update(trials)
          .set({ status: "running", workerId: "w", attempts: 1, startedAt: rerunStart + i * 10 })
          .where(eq(trials.id, t.id));
    }
    await db.update(benches).set({ status: "running", startedAt: rerunStart }).where(eq(benches.id, b.id));
    if (side === "before") {
      // As a bench reopened before the launch run's times were kept with it.
      const { launchRun: _kept, ...settings } = (await getBench(db, b.id))!.settings;
      await db
        .update(benches)
        .set({ settings: JSON.stringify(settings) })
        .where(eq(benches.id, b.id));
    }
    rerun[side] = b.id;
  }
  return { running: running.id, rerun };
}

/** A process polling with one checkout's code (`--poller`): one line of JSON in, one out. */
interface Poller {
  poll: (id: number) => Promise<{ ms: number; cpu: number; figures: string }>;
  stop: () => void;
}

/** Starts `--poller` from checkout `dir` (its own tsconfig paths and modules) on the store at `target`. */
function startPoller(dir: string, store: string, target: string): Poller {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(dir, "bench/progress-poll.ts"), "--poller", store, target], {
    cwd: dir,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  return {
    poll: (id) =>
      new Promise((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as { ms: number; cpu: number; figures: string }));
        child.stdin.write(`${id}\n`);
      }),
    stop: () => child.stdin.end(),
  };
}

/** `--poller STORE TARGET`: polls each bench id read from stdin with this checkout's code; prints its wall and CPU ms and figures. */
async function poller(store: string, target: string): Promise<void> {
  const db = store === "sqlite" ? openDatabase(target) : openPgStore(target, 2);
  for await (const line of createInterface({ input: process.stdin })) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const p = (await benchProgressPoll(db, Number(line)))!;
    const ms = performance.now() - t0;
    const dc = process.cpuUsage(c0);
    process.stdout.write(`${JSON.stringify({ ms, cpu: (dc.user + dc.system) / 1000, figures: JSON.stringify(p) })}\n`);
  }
  if (store === "sqlite") db.$client.close();
  else await closeStore(db);
}

/** The figures of a poll but the ids of its bench and candidates (two benches seeded alike). */
function sameFigures(json: string): string {
  const p = JSON.parse(json) as Awaited<ReturnType<typeof benchProgressPoll>> & object;
  return JSON.stringify({
    ...p,
    id: 0,
    candidates: p.candidates.map((c, i) => ({ ...c, candidateId: i })),
    spend: { ...p.spend, candidates: p.spend.candidates.map((c, i) => ({ ...c, id: i })) },
  });
}

async function measure(store: string, db: Db, target: string, n: number, beforeDir: string | null): Promise<void> {
  const t = performance.now();
  const ids = await seed(db, n);
  console.log(`[${store}] ${n.toLocaleString("en")} trials per bench seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  // Analyzed as a long-lived store would be (SQLite's planner reads sqlite_stat1; PostgreSQL's autovacuum analyzes).
  if (store === "sqlite") db.$client.exec("ANALYZE");
  else await rawRows(db, sql`ANALYZE`);
  const after = startPoller(process.cwd(), store, target);
  const before = beforeDir ? startPoller(beforeDir, store, target) : null;
  type Row = { name: string; poller: Poller; id: number; ms: number[]; cpu: number; figures: string[] };
  const rows: Row[] = [
    ...(before ? [{ name: "running bench, before", poller: before, id: ids.running }] : []),
    { name: "running bench, after", poller: after, id: ids.running },
    ...(before ? [{ name: "rerun bench, before", poller: before, id: ids.rerun.after }] : []),
    { name: "rerun bench, after", poller: after, id: ids.rerun.after },
    { name: "rerun bench reopened before its launch times were kept, after", poller: after, id: ids.rerun.before },
  ].map((r) => ({ ...r, ms: [], cpu: 0, figures: [] }));
  try {
    // Alternated poll by poll (5 warm-up polls each), so every row sees the same load.
    for (let i = 0; i < runs + 5; i++)
      for (const r of rows) {
        const got = await r.poller.poll(r.id);
        if (i === 0) r.figures.push(sameFigures(got.figures));
        if (i >= 5) {
          r.ms.push(got.ms);
          r.cpu += got.cpu;
        }
      }
  } finally {
    after.stop();
    before?.stop();
  }
  // Every row of a bench gives the same figures (the two rerun benches were seeded alike).
  const running = rows.filter((r) => r.id === ids.running).map((r) => r.figures[0]);
  const rerun = rows.filter((r) => r.id !== ids.running).map((r) => r.figures[0]);
  if (new Set(running).size !== 1 || new Set(rerun).size !== 1) throw new Error("the poll's figures differ between the rows of one bench");
  console.log(`  one poll's server time (benchProgressPoll in its own process), alternated; same figures; load average ${load()}:`);
  for (const r of rows) console.log(`    ${r.name.padEnd(68)} ${describeTimes(r.ms)}; CPU ${(r.cpu / runs).toFixed(2)} ms`);
}

async function main(): Promise<void> {
  const beforeRev = opt("--before");
  let beforeDir: string | null = null;
  if (beforeRev) {
    // The older code as a checkout of its own (its tsconfig paths, this checkout's node_modules) with this script in it.
    beforeDir = mkdtempSync(path.join(tmpdir(), "benchwork-progress-poll-before-"));
    execSync(`git archive ${beforeRev} | tar -x -C ${JSON.stringify(beforeDir)}`, { stdio: "inherit" });
    symlinkSync(path.resolve("node_modules"), path.join(beforeDir, "node_modules"));
    copyFileSync(path.resolve("bench/progress-poll.ts"), path.join(beforeDir, "bench/progress-poll.ts"));
  }
  console.log(`load average ${load()}; ${runs} polls per figure${beforeRev ? `; before: ${beforeRev}, after: this checkout` : ""}`);
  try {
    for (const store of stores)
      for (const n of sizes) {
        if (store === "sqlite") {
          const dir = mkdtempSync(path.join(tmpdir(), "benchwork-progress-poll-"));
          try {
            const file = path.join(dir, "poll.db");
            const db = openDatabase(file);
            migrateDatabase(db);
            await measure(store, db, file, n, beforeDir);
            db.$client.close();
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        } else {
          const database = await createTestDatabase();
          const db = openPgStore(database.url, 2);
          try {
            await measure(store, db, database.url, n, beforeDir);
          } finally {
            await closeStore(db);
            await database.drop();
          }
        }
      }
    await stopOwnCluster();
  } finally {
    if (beforeDir) rmSync(beforeDir, { recursive: true, force: true });
  }
}

if (args[0] === "--poller") void poller(args[1], args[2]);
else void main();
