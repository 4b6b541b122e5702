/**
 * `benchwork bench run --system ID --prompt NAME --candidate SPEC [--candidate SPEC …]
 *   [--baseline INDEX] [--cases all|tag:T|source:S|dataset:NAME] [--no-retained] [--budget N] [--repeats N]
 *   [--concurrency N] [--timeout SECONDS] [--judge CONFIG] [--generate-criteria N] [--generate-scenarios M]
 *   [--generator CONFIG] [--json-output PATH] [--markdown PATH] [--fail-on worse|inconclusive[,…]] [--rerun-errors] [--confirm]
 *   [--max-cost USD] [--max-latency-increase PCT] [--max-cost-increase PCT]`
 * Plans, launches and waits for a bench on BENCHWORK_DB (or on PostgreSQL with BENCHWORK_DATABASE_URL
 * set: a job worker on its pg-boss queue, issue 20) with the same worker code as the app,
 * showing progress; then prints the summary and the recommendation (issue #5). `--rerun-errors`
 * reruns the errored trials and `--confirm` the suspected regressions' cases inside the same bench
 * once it finished, saying what each adds first (issue #16 §3); the results are then the recomputed ones.
 * SPEC: `recorded:COLUMN` or `model:CONFIG[@REVISION]` (a model configuration name, optionally a
 * prompt revision: `3`, `r3`, `current` or `previous`). Exit 0 when the bench finished; 1 when it is partial (its spend
 * cap cut it short, or it was cancelled: it recommends nothing, and stderr says why), when it finished but the best
 * candidate is blocked by a regression or every trial errored, the generator's answer was unusable
 * (then nothing is stored), or with `--fail-on worse` when the primary comparison (see
 * lib/bench/evidence/headline.ts) is worse or its candidate is blocked, with `--fail-on inconclusive`
 * when it is that or inconclusive (lib/bench/evidence/fail-on.ts); 2 on a usage error.
 * With `--server URL` (issue 19) the bench is launched on that team server through its HTTP API
 * (token from BENCHWORK_TOKEN) and run by the server's worker; the output and exit codes are the
 * same, and a refused token ends with exit 2 and one line.
 */
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { databasePath, migrateDatabase, openDatabase, type Db } from "@/db/client";
import { getBench, getBenchProgress, requestCancel, type BenchProgress } from "@/db/queries/benches";
import { launchLines, planSummary, type GeneratedSummary, type PlanSummary } from "@/lib/bench/launch-lines";
import { LibraryError } from "@/lib/library/errors";
import { parseFailOn, type FailOn } from "@/lib/bench/evidence/fail-on";
import { deterministicNote } from "@/lib/bench/rerun/select";
import { RerunSpendCapError, rerunSpendCapSentence } from "@/lib/bench/rerun/spend-cap";
import { rerunCostText } from "@/lib/bench/rerun/cost";
import { launchFromRequest } from "@/server/bench/prepare";
import { startRerun, type RerunPlan } from "@/server/bench/reruns";
import { resolveBenchRun, type BenchRunInput } from "@/server/bench/run-request";
import { benchRunExit, benchRunReport, manifestOfPlan, type BenchRunReport } from "@/server/bench/run-report";
import { GenerationFailed } from "@/server/generate/with-config";
import { startBenchWorker } from "@/server/worker";
import { startJobWorker } from "@/server/job-worker";
import { stopJobQueue } from "@/server/bench/trial-jobs";
import { pgStoreName, postgresUrl, reachPgStore, StoreUnreachableError, unreachableReason } from "@/db/pg/client";
import { OutageTooLong, rideOutOutage } from "@/lib/ride-out-outage";
import type pg from "pg";
import { isPostgres, openPgStore } from "@/db/pg/store";
import { LOCAL_AUTHOR } from "../local-author";
import { CliError, usage, writeJsonFile, writeTextFile, type Io } from "../io";
import { connect, remoteRefusal, RemoteError } from "../remote";
import type { LaunchedBench } from "@/server/api/benches";
import { progressLease } from "@/server/bench/progress-lease";
import { progressLine } from "@/lib/bench/progress-line";
import { counted } from "@/lib/bench/counted";
import { usd } from "@/lib/bench/budget";

export interface BenchRunOptions extends BenchRunInput {
  jsonOutput?: string;
  /** Where to write the pull-request comment (Markdown). */
  markdown?: string;
  /** `--fail-on` values (repeatable, each comma-separated): `worse`, `inconclusive` (see lib/bench/evidence/fail-on.ts). */
  failOn?: string[];
  /** `--confirm`: after the run, rerun the suspected regressions' cases inside the bench (issue #16 §3). */
  confirm?: boolean;
  /** `--rerun-errors`: after the run, rerun the errored trials inside the bench. */
  rerunErrors?: boolean;
  /** `--rerun-max-cost USD`: the spend cap raised to USD for those reruns when it would stop them (issue #16). */
  rerunMaxCost?: string;
  /** `--server URL`: launch on a team server through its HTTP API (token from BENCHWORK_TOKEN) instead of BENCHWORK_DB. */
  server?: string;
}

/**
 * The database of BENCHWORK_DB, migrated. A bench needs a system and cases, so a missing file is a
 * usage error (creating an empty one would only lead to "no system"), as is a file SQLite cannot open.
 * @throws CliError (exit 2) naming the path and the problem, in one line
 */
function openExisting(): Db {
  // PostgreSQL (issue 20): migrated by `npm run db:migrate` like the server; this process runs a job worker on it.
  let url: string | null;
  try {
    url = postgresUrl(process.env);
  } catch (e) {
    throw usage(`bench run: ${(e as Error).message}`);
  }
  if (url) return openPgStore(url, 4);
  const file = databasePath();
  if (file !== ":memory:" && !existsSync(file))
    throw usage(`no database at ${path.resolve(file)}: create one with \`npm run db:seed\` (the demo workspace) or set BENCHWORK_DB to yours`);
  try {
    const db = openDatabase(file);
    migrateDatabase(db);
    return db;
  } catch (e) {
    throw usage(`cannot open the database ${path.resolve(file)}: ${(e as Error).message}`);
  }
}

/**
 * Checks, before anything runs, that `file` can be written (its folder is created as the write
 * would create it); a file the check creates is removed again.
 * @throws CliError (exit 2) naming the option, the path and the reason
 */
function checkWritable(file: string, option: string): void {
  const target = path.resolve(file);
  try {
    if (existsSync(target) && statSync(target).isDirectory()) throw usage(`${option} ${file}: is a directory`);
    const existed = existsSync(target);
    mkdirSync(path.dirname(target), { recursive: true });
    closeSync(openSync(target, "a"));
    if (!existed) unlinkSync(target);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw usage(`${option} ${file}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Where a bench runs: on BENCHWORK_DB with a worker of this process, or on a team server. */
interface BenchBackend {
  launch(o: BenchRunOptions): Promise<{ id: number; plan: PlanSummary; generated: GeneratedSummary | null; includeRetained: boolean }>;
  /** A server's also says since when no worker has picked the bench up (`noWorkerSince`); a local one runs its own worker. */
  progress(id: number): Promise<BenchProgress & { noWorkerSince?: number | null }>;
  cancel(id: number): Promise<void>;
  /** The report; `manifest` from the launch's plan. */
  report(id: number, plan: PlanSummary, includeRetained: boolean): Promise<BenchRunReport>;
  /** Starts a rerun inside the ended bench (issue #16 §3) and lets the worker run it. */
  rerun(id: number, kind: "errors" | "confirm", spendCapUsd?: number): Promise<RerunPlan>;
  /** Stops this process's worker (local); nothing on a server. */
  close(): Promise<void>;
}

/** How long `bench run` waits for an unreachable PostgreSQL store during a run before it gives up (exit 2), in ms. */
export const STORE_OUTAGE_GIVE_UP_MS = 120_000;

function localBackend(io: Io): BenchBackend {
  const db = openExisting();
  let worker: { wake(): void; stop(graceMs?: number): Promise<void> } | null = null;
  return {
    async launch(o) {
      // A store it cannot reach is a broken database (exit 2): one line with the store and the reason, as `user add` says it.
      if (isPostgres(db)) {
        const url = postgresUrl(process.env)!;
        await reachPgStore((db as unknown as { $client: pg.Pool }).$client, url).catch((e: unknown) => {
          throw e instanceof StoreUnreachableError ? new CliError(e.message, 2) : e;
        });
      }
      let request;
      try {
        request = await resolveBenchRun(db, o, databasePath(), `cli-${randomUUID()}`);
      } catch (e) {
        if (e instanceof LibraryError) throw usage(e.message);
        throw e;
      }
      let launched;
      try {
        launched = await launchFromRequest(db, request, { env: process.env, author: LOCAL_AUTHOR });
      } catch (e) {
        if (e instanceof LibraryError) throw usage(e.message);
        // The generator's answer was unusable or its call failed: nothing stored, no bench.
        if (e instanceof GenerationFailed) throw new CliError(e.message, 1);
        throw e;
      }
      const generated = request.generate ? ((await getBench(db, launched.id))?.settings.generated ?? null) : null;
      // On PostgreSQL the job worker (pg-boss queue); other `npm run worker` processes may run trials of it too.
      worker = isPostgres(db) ? await startJobWorker(db, { pollMs: 50 }) : startBenchWorker(db, { pollMs: 50 });
      return { id: launched.id, plan: planSummary(launched.plan), generated, includeRetained: o.retained !== false };
    },
    // On PostgreSQL a progress poll rides out a short outage (a restart, a failover): a line when it
    // starts and ends, exit 2 with one line after STORE_OUTAGE_GIVE_UP_MS.
    progress: async (id) => {
      const poll = async () => (await getBenchProgress(db, id, progressLease()))!;
      if (!isPostgres(db)) return poll();
      const store = pgStoreName(postgresUrl(process.env)!);
      return rideOutOutage(poll, {
        outageReason: unreachableReason,
        giveUpMs: STORE_OUTAGE_GIVE_UP_MS,
        now: Date.now,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        onLost: (reason) => io.err(`benchwork: the PostgreSQL store ${store} is unreachable (${reason}); waiting up to ${STORE_OUTAGE_GIVE_UP_MS / 1000} s`),
        onBack: () => io.err(`benchwork: the PostgreSQL store ${store} is reachable again`),
      }).catch((e: unknown) => {
        throw e instanceof OutageTooLong ? new CliError(`the PostgreSQL store ${store} is ${e.message}`, 2) : e;
      });
    },
    cancel: async (id) => {
      await requestCancel(db, id, LOCAL_AUTHOR);
      worker?.wake();
    },
    report: (id, plan, includeRetained) => benchRunReport(db, id, manifestOfPlan(plan, includeRetained)),
    async rerun(id, kind, spendCapUsd) {
      const plan = await startRerun(db, id, kind, undefined, process.env, spendCapUsd === undefined ? {} : { spendCapUsd });
      worker?.wake();
      return plan;
    },
    close: async () => {
      await worker?.stop(2_000);
      // The store stays open for the report; the CLI's entry (cli/bin.mjs) exits when the command is done.
      if (isPostgres(db)) await stopJobQueue(db);
    },
  };
}

function remoteBackend(server: string): BenchBackend {
  const remote = connect(server, process.env.BENCHWORK_TOKEN || undefined);
  const call = async <T>(method: "GET" | "POST", p: string, body?: unknown): Promise<T> => {
    try {
      return await remote.call<T>(method, p, body);
    } catch (e) {
      // GenerationFailed on the server: exit 1, as on a database file.
      if (e instanceof RemoteError && e.status === 502) throw new CliError(e.error.message, 1);
      throw remoteRefusal(e);
    }
  };
  return {
    async launch(o) {
      const { server: _s, jsonOutput: _j, markdown: _m, failOn: _f, ...options } = o;
      const r = await call<LaunchedBench>("POST", "api/v1/benches", { ...options, launchKey: `cli-${randomUUID()}` });
      return { id: r.benchId, plan: r.plan, generated: r.generated, includeRetained: r.includeRetained };
    },
    progress: (id) => call<BenchProgress & { noWorkerSince: number | null }>("GET", `api/v1/benches/${id}/progress`),
    cancel: async (id) => {
      await call("POST", `api/v1/benches/${id}/cancel`, {});
    },
    async report(id, plan, includeRetained) {
      const r = await call<BenchRunReport>("GET", `api/v1/benches/${id}/results`);
      // The manifest block as the launch planned it (the server rebuilds it from the stored manifest).
      return { ...r, result: { ...r.result, manifest: manifestOfPlan(plan, includeRetained) } };
    },
    rerun: async () => {
      throw usage("--confirm and --rerun-errors work on a database file only for now (not with --server): use the bench page's Reruns panel");
    },
    close: async () => {},
  };
}

/** Runs the command; returns the exit code. */
export async function benchRunCommand(o: BenchRunOptions, io: Io): Promise<number> {
  let failOn: FailOn[];
  try {
    failOn = parseFailOn(o.failOn ?? []);
  } catch (e) {
    throw usage((e as Error).message);
  }
  if (o.jsonOutput) checkWritable(o.jsonOutput, "--json-output");
  if (o.markdown) checkWritable(o.markdown, "--markdown");
  if (o.server !== undefined && (o.confirm || o.rerunErrors))
    throw usage("--confirm and --rerun-errors work on a database file only for now (not with --server): use the bench page's Reruns panel");
  const rerunCap = rerunMaxCost(o);
  const backend = o.server !== undefined ? remoteBackend(o.server) : localBackend(io);
  const { id, plan, generated, includeRetained } = await backend.launch(o);
  for (const line of launchLines(id, plan, generated, includeRetained)) io.out(line);

  const reruns: RerunRecord[] = [];
  const refused: string[] = [];
  try {
    await waitForBench(backend, id, io);
    // Reruns inside the bench (issue #16 §3): errored trials first, then the confirm round, each planned, run and recomputed.
    for (const kind of [o.rerunErrors ? "errors" : null, o.confirm ? "confirm" : null] as const) {
      if (!kind) continue;
      const done = await rerunInBench(backend, id, kind, io, rerunCap);
      if (done && "refused" in done) refused.push(done.refused);
      else if (done) reruns.push(done);
    }
  } finally {
    await backend.close();
  }

  const report = await backend.report(id, plan, includeRetained);
  // Issue #16 §3: the reruns inside this bench that --rerun-errors and --confirm ran.
  report.result.reruns = reruns;
  for (const line of report.lines) io.out(line);
  if (o.jsonOutput) writeJsonFile(o.jsonOutput, report.result);
  if (o.markdown) writeTextFile(o.markdown, report.markdown);
  const exit = benchRunExit(report.gate, failOn);
  if (exit.stderr) io.err(exit.stderr);
  // A rerun the spend cap refused was asked for and did not run: exit 1 whatever the gate says, so CI
  // cannot take the bench for a confirmed one (issue #16). Not 2: the bench ran and is stored.
  for (const line of refused) io.err(line);
  return refused.length ? Math.max(exit.code, 1) : exit.code;
}

/**
 * `--rerun-max-cost USD` as a number, or undefined when not given.
 * @throws CliError (usage, exit 2) naming the flag: not a positive number, or without --confirm / --rerun-errors
 */
function rerunMaxCost(o: BenchRunOptions): number | undefined {
  if (o.rerunMaxCost === undefined) return undefined;
  const v = Number(o.rerunMaxCost);
  if (!Number.isFinite(v) || v <= 0 || o.rerunMaxCost.trim() === "")
    throw usage(`--rerun-max-cost: the spend cap for the reruns (USD) must be a positive number (got "${o.rerunMaxCost}")`);
  if (!o.confirm && !o.rerunErrors) throw usage("--rerun-max-cost raises the spend cap for --confirm / --rerun-errors: give one of them");
  return v;
}

/** A rerun that `--rerun-errors` / `--confirm` ran, as listed in the results JSON (`reruns`). */
interface RerunRecord {
  kind: "errors" | "confirm";
  trials: number;
  cases: string[];
  modelCalls: number;
  judgeCalls: number;
  estimate: RerunPlan["estimate"];
}

/**
 * Waits until bench `id` has ended, showing progress (a line every 5 s when not a terminal);
 * Ctrl-C cancels the bench (twice quits).
 */
async function waitForBench(backend: BenchBackend, id: number, io: Io): Promise<void> {
  let cancelled = false;
  const onInt = () => {
    if (cancelled) process.exit(130);
    cancelled = true;
    io.err("cancelling: running trials stop, unrun trials are skipped (Ctrl-C again to quit now)");
    void backend.cancel(id).catch((e: Error) => io.err(`benchwork: cancel failed: ${e.message}`));
  };
  process.on("SIGINT", onInt);
  let last = "";
  let printed = "";
  let printedAt = Date.now();
  try {
    for (;;) {
      const p = await backend.progress(id);
      const line = progressLine(p, Date.now());
      const ended = p.status !== "queued" && p.status !== "running";
      if (io.tty) {
        if (line !== last) process.stdout.write(`\r${line}`);
      } else if (line !== printed && (ended || Date.now() - printedAt >= 5_000)) {
        // Not a terminal (a CI log): a line every 5 s, so a long bench does not look stuck.
        io.out(line);
        printed = line;
        printedAt = Date.now();
      }
      last = line;
      if (ended) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    if (io.tty) process.stdout.write("\n");
    process.off("SIGINT", onInt);
  }
}

/**
 * One rerun inside the finished bench `id` (`--rerun-errors`, `--confirm`): says what it adds and
 * costs, runs it and waits for the bench to be finalized again. Nothing to rerun is said and skipped.
 * @returns what was run; `refused` (the stderr line) when the spend cap refused it; null when there was nothing to rerun
 */
async function rerunInBench(
  backend: BenchBackend,
  id: number,
  kind: "errors" | "confirm",
  io: Io,
  spendCapUsd?: number,
): Promise<RerunRecord | { refused: string } | null> {
  const flagName = kind === "confirm" ? "--confirm" : "--rerun-errors";
  let plan: RerunPlan;
  try {
    plan = await backend.rerun(id, kind, spendCapUsd);
  } catch (e) {
    if (e instanceof RerunSpendCapError) {
      // A spend-cap refusal names the flag that raises the cap for the rerun, and fails the command (issue #16).
      const reason = `${e.message.replace(/\.$/, "")} (--rerun-max-cost USD).`;
      io.out(`${flagName}: ${reason}`);
      return { refused: `benchwork: ${flagName} was refused, so nothing was ${kind === "confirm" ? "confirmed" : "rerun"}: ${reason}` };
    }
    // Nothing to rerun (no suspected regression, no errored trial) is said and skipped: the gate decides.
    if (e instanceof LibraryError && e.code === "not_allowed") {
      io.out(`${flagName}: ${e.message}`);
      return null;
    }
    throw e;
  }
  // One cost, the dialog's: each trial at what this bench measured for its candidate (on that case) (issue #16 §3).
  const cost = rerunCostText(plan.estimate.costUsd, plan.estimate.costFrom);
  io.out(
    `${kind === "confirm" ? `confirming ${counted(plan.targets, "suspected regression")}` : `rerunning ${counted(plan.targets, "errored trial")}`}: ${counted(plan.trials.length, "trial")} (${plan.perCandidate.map((c) => `${c.label}: ${c.trials}`).join(", ")}) on ${counted(plan.caseKeys.length, "case")}, ${plan.modelCallsUpperBound ? "at most " : ""}${counted(plan.modelCalls, "model call")}, ${counted(plan.judgeCalls, "judge call")}, ~${plan.estimate.inputTokens} input / ${plan.estimate.outputTokens} output tokens (the plan's estimate), ${cost}`,
  );
  if (plan.spendCap) io.out(`${flagName}: ${rerunSpendCapSentence(plan.spendCap)}`);
  // The sentence names the cap as it stood; the round runs under the raised one (issue #16).
  if (plan.spendCap && spendCapUsd !== undefined && spendCapUsd > plan.spendCap.capUsd)
    io.out(`${flagName}: the spend cap is raised to ${usd(spendCapUsd)} for this rerun (--rerun-max-cost).`);
  // Issue #16: the regressions a confirm round leaves out, and why (recorded answers replay the same).
  const note = kind === "confirm" ? deterministicNote(plan.deterministic) : null;
  if (note) io.out(`--confirm: ${note}`);
  await waitForBench(backend, id, io);
  return { kind, trials: plan.trials.length, cases: plan.caseKeys, modelCalls: plan.modelCalls, judgeCalls: plan.judgeCalls, estimate: plan.estimate };
}
