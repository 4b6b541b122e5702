/**
 * Aggregation of a bench's trials (DESIGN.md §4 step 6): per candidate, pass rates over SCORED
 * checks with their denominators, unscored and error counts kept apart, per-criterion pass rates,
 * tokens, cost and latency percentiles; per case × candidate, how many trials passed.
 */
import { evaluatorKindLabel } from "@/lib/evaluators/describe";
import type { CheckRecord } from "./types";

/** The part of a check result aggregation reads. */
export type FactCheck = Pick<CheckRecord, "key" | "kind" | "label" | "verdict" | "priority" | "usage">;

/** The slice of a trial aggregation needs. */
export interface TrialFacts {
  candidateId: number;
  caseRevisionId: number;
  caseKey: string;
  repeat: number;
  status: "queued" | "running" | "done" | "error" | "skipped";
  checks: FactCheck[] | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  latencyMs: number | null;
}

/** Pass rate with its denominator; `rate` is null when nothing was scored. */
export interface Rate {
  passed: number;
  scored: number;
  rate: number | null;
}

/** Per-candidate figures. Latency in ms, cost in USD (null when no price is known), tokens summed. */
export interface CandidateStats {
  candidateId: number;
  trials: { total: number; done: number; error: number; skipped: number; pending: number };
  checks: { scored: number; passed: number; failed: number; unscored: number; error: number };
  passRate: Rate;
  /**
   * Trials that fully passed (a scored check passed, none failed, none errored) over trials with a
   * verdict (fully passed, or a scored check failed). Trials with an error and no failure are
   * neither: they are counted in {@link CandidateStats.trialsWithErrors}.
   */
  trialPassRate: Rate;
  /**
   * Trials that ended in error, or one of whose checks errored (those without a failed check are
   * neither passed nor failed). Absent in summaries stored before errors were counted per trial.
   */
  trialsWithErrors?: number;
  byCheck: Record<string, { label: string; kind: string; priority?: "primary" | "secondary"; passed: number; failed: number; unscored: number; error: number }>;
  tokens: { input: number; output: number };
  costUsd: number | null;
  latencyMs: { p50: number | null; p95: number | null };
  /**
   * The judge's calls for this candidate's checks: how many checks called it, their tokens, and
   * their cost in USD (null when the judge model has no prices). Absent in summaries stored before
   * it was counted, and while a bench runs.
   */
  judge?: { checks: number; tokens: { input: number; output: number }; costUsd: number | null };
}

/**
 * The statistics of one candidate in a bench summary (`{ candidates: [{ candidateId, stats }] }`),
 * or null when the summary is missing (the bench has not ended) or does not list the candidate.
 */
export function statsOf(
  summary: { candidates: readonly { candidateId: number; stats: CandidateStats }[] } | null | undefined,
  candidateId: number,
): CandidateStats | null {
  return summary?.candidates.find((c) => c.candidateId === candidateId)?.stats ?? null;
}

/** The p-th percentile by nearest rank (values unsorted), or null for no values. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function rate(passed: number, scored: number): Rate {
  return { passed, scored, rate: scored ? passed / scored : null };
}

/**
 * The label of a check row that sums checks with different labels: the evaluator at the same
 * position of each case is one row (`e0:expected_tool_calls`), but its summary names that case's
 * expectation ("Calls lookup_policy"). The evaluator's own name when they share one
 * ("Uses the expected tools — Calls …"), else the kind's name ("Expected tools fire"), marked as
 * differing by case.
 */
export function sharedLabel(a: string, b: string, kind: string): string {
  const SUFFIX = " (differs by case)";
  const name = (l: string) => (l.endsWith(SUFFIX) ? l.slice(0, -SUFFIX.length) : l.includes(" — ") ? l.slice(0, l.indexOf(" — ")) : null);
  const na = name(a);
  return `${na !== null && na === name(b) ? na : evaluatorKindLabel(kind)}${SUFFIX}`;
}

/** How one trial reads in the counts (the matrix cell, "cases fully passed"). */
export type TrialVerdict = "passed" | "failed" | "error" | "unscored" | "skipped" | "pending";

/**
 * The verdict of one trial from its status and its checks' verdict counts: `failed` when a scored
 * check failed; else `error` when the trial or one of its checks errored (an infrastructure
 * failure is never a pass, nor a model failure); else `passed` when a check passed; else
 * `unscored` (done, nothing observable), `skipped` or `pending`.
 */
export function trialVerdict(status: TrialFacts["status"], n: { passed: number; failed: number; error: number }): TrialVerdict {
  if (n.failed > 0) return "failed";
  if (status === "error" || n.error > 0) return "error";
  if (status === "skipped") return "skipped";
  if (status !== "done") return "pending";
  return n.passed > 0 ? "passed" : "unscored";
}

/** Whether a trial holds an error: it errored, or one of its checks did (whatever its verdict). */
export function hasErrors(status: TrialFacts["status"], n: { error: number }): boolean {
  return status === "error" || n.error > 0;
}

function verdictCounts(checks: readonly Pick<CheckRecord, "verdict">[] | null): { passed: number; failed: number; error: number } {
  const n = { passed: 0, failed: 0, error: 0 };
  if (checks) for (const c of checks) if (c.verdict !== "unscored") n[c.verdict]++;
  return n;
}

/** Per-candidate statistics, in the order of `candidateIds`. */
export function aggregateCandidates(candidateIds: number[], trials: Iterable<TrialFacts>): CandidateStats[] {
  const by = new Map<number, CandidateStats & { _lat: number[]; _costKnown: boolean; _trialScored: number; _trialPassed: number }>();
  for (const id of candidateIds) {
    by.set(id, {
      candidateId: id,
      trials: { total: 0, done: 0, error: 0, skipped: 0, pending: 0 },
      checks: { scored: 0, passed: 0, failed: 0, unscored: 0, error: 0 },
      passRate: rate(0, 0),
      trialPassRate: rate(0, 0),
      trialsWithErrors: 0,
      byCheck: {},
      tokens: { input: 0, output: 0 },
      costUsd: null,
      latencyMs: { p50: null, p95: null },
      _lat: [],
      _costKnown: false,
      _trialScored: 0,
      _trialPassed: 0,
    });
  }
  for (const t of trials) {
    const s = by.get(t.candidateId);
    if (!s) continue;
    s.trials.total++;
    if (t.status === "done") s.trials.done++;
    else if (t.status === "error") s.trials.error++;
    else if (t.status === "skipped") s.trials.skipped++;
    else s.trials.pending++;
    s.tokens.input += t.inputTokens ?? 0;
    s.tokens.output += t.outputTokens ?? 0;
    if (t.costUsd != null) {
      s.costUsd = (s.costUsd ?? 0) + t.costUsd;
      s._costKnown = true;
    }
    if (t.status === "done" && t.latencyMs != null) s._lat.push(t.latencyMs);
    const counts = verdictCounts(t.checks);
    const tv = trialVerdict(t.status, counts);
    if (tv === "passed" || tv === "failed") s._trialScored++;
    if (tv === "passed") s._trialPassed++;
    if (hasErrors(t.status, counts)) s.trialsWithErrors!++;
    if (!t.checks) continue;
    for (const c of t.checks) {
      s.checks[c.verdict]++;
      const b = (s.byCheck[c.key] ??= {
        label: c.label,
        kind: c.kind,
        ...(c.priority ? { priority: c.priority } : {}),
        passed: 0,
        failed: 0,
        unscored: 0,
        error: 0,
      });
      if (b.label !== c.label) b.label = sharedLabel(b.label, c.label, c.kind);
      b[c.verdict]++;
      if (c.usage) {
        const j = (s.judge ??= { checks: 0, tokens: { input: 0, output: 0 }, costUsd: null });
        j.checks++;
        j.tokens.input += c.usage.inputTokens;
        j.tokens.output += c.usage.outputTokens;
        if (c.usage.costUsd != null) j.costUsd = (j.costUsd ?? 0) + c.usage.costUsd;
      }
    }
  }
  return candidateIds.map((id) => {
    const { _lat, _costKnown, _trialScored, _trialPassed, ...s } = by.get(id)!;
    s.checks.scored = s.checks.passed + s.checks.failed;
    s.passRate = rate(s.checks.passed, s.checks.scored);
    s.trialPassRate = rate(_trialPassed, _trialScored);
    s.latencyMs = { p50: percentile(_lat, 50), p95: percentile(_lat, 95) };
    if (!_costKnown) s.costUsd = null;
    return s;
  });
}

/** Outcome of one check of one case for one candidate, over its repeats. */
export type CheckOutcome = "passed" | "failed" | "mixed" | "unscored" | "error";

/** One check of one case for one candidate over its repeats (see {@link checkOutcomes}). */
export interface CheckOutcomeRow {
  outcome: CheckOutcome;
  passed: number;
  scored: number;
  label: string;
  priority?: "primary" | "secondary";
  caseKey: string;
  caseRevisionId: number;
  key: string;
}

/** Per case revision and check key, the outcome across repeats: `passed` only when every scored repeat passed. */
export function checkOutcomes(trials: Iterable<TrialFacts>, candidateId: number): Map<string, CheckOutcomeRow> {
  const acc = new Map<
    string,
    {
      passed: number;
      failed: number;
      unscored: number;
      error: number;
      label: string;
      priority?: "primary" | "secondary";
      caseKey: string;
      caseRevisionId: number;
      key: string;
    }
  >();
  for (const t of trials) {
    if (t.candidateId !== candidateId || !t.checks) continue;
    for (const c of t.checks) {
      const k = `${t.caseRevisionId}|${c.key}`;
      const a = acc.get(k) ?? {
        passed: 0,
        failed: 0,
        unscored: 0,
        error: 0,
        label: c.label,
        ...(c.priority ? { priority: c.priority } : {}),
        caseKey: t.caseKey,
        caseRevisionId: t.caseRevisionId,
        key: c.key,
      };
      a[c.verdict]++;
      acc.set(k, a);
    }
  }
  const out = new Map<
    string,
    {
      outcome: CheckOutcome;
      passed: number;
      scored: number;
      label: string;
      priority?: "primary" | "secondary";
      caseKey: string;
      caseRevisionId: number;
      key: string;
    }
  >();
  for (const [k, a] of acc) {
    const scored = a.passed + a.failed;
    const outcome: CheckOutcome = scored === 0 ? (a.error ? "error" : "unscored") : a.failed === 0 ? "passed" : a.passed === 0 ? "failed" : "mixed";
    out.set(k, {
      outcome,
      passed: a.passed,
      scored,
      label: a.label,
      ...(a.priority ? { priority: a.priority } : {}),
      caseKey: a.caseKey,
      caseRevisionId: a.caseRevisionId,
      key: a.key,
    });
  }
  return out;
}

/** Verdict of one case for one candidate over its repeats (the matrix cell). */
export interface CaseCell {
  /**
   * `passed`/`failed`/`mixed` over the trials with a verdict (see {@link trialVerdict}); `error`
   * when no trial has one and some errored. Errors beside a verdict are in `errorTrials`.
   */
  verdict: "passed" | "failed" | "mixed" | "unscored" | "error" | "skipped" | "pending";
  /** Trials that fully passed, of trials with a verdict (fully passed or failed). */
  passedTrials: number;
  scoredTrials: number;
  /** Trials that errored, or one of whose checks errored (a failed one stays failed; one without a failure has no verdict). */
  errorTrials: number;
  trials: number;
  failedChecks: number;
}

/**
 * The cell's verdict from its trial counts (shared by {@link caseCell} and the matrix query).
 * @param n trials in total, pending (queued or running), skipped, with a verdict (`scored`), fully
 *   passed, and with errors (see {@link hasErrors})
 */
export function cellVerdict(n: { total: number; pending: number; skipped: number; scored: number; passed: number; errors: number }): CaseCell["verdict"] {
  if (n.pending) return "pending";
  if (n.scored === 0) return n.errors ? "error" : n.skipped === n.total ? "skipped" : "unscored";
  if (n.passed === n.scored) return "passed";
  return n.passed === 0 ? "failed" : "mixed";
}

/** The matrix cell of a case × candidate from its trials (one per repeat). */
export function caseCell(trials: TrialFacts[]): CaseCell {
  const n = { total: trials.length, pending: 0, skipped: 0, scored: 0, passed: 0, errors: 0 };
  let failedChecks = 0;
  for (const t of trials) {
    const counts = verdictCounts(t.checks);
    failedChecks += counts.failed;
    const v = trialVerdict(t.status, counts);
    if (v === "pending") n.pending++;
    else if (v === "skipped") n.skipped++;
    else if (v === "passed" || v === "failed") {
      n.scored++;
      if (v === "passed") n.passed++;
    }
    if (hasErrors(t.status, counts)) n.errors++;
  }
  return { verdict: cellVerdict(n), passedTrials: n.passed, scoredTrials: n.scored, errorTrials: n.errors, trials: trials.length, failedChecks };
}
