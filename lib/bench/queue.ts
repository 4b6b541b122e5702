/**
 * The rows a trial job worker passes around (DESIGN.md §4 step 3, §8): a claimed trial as its
 * executor runs it, and the outcome it reports. The queue itself is lib/bench/trial-jobs.ts (SQLite:
 * db/queries/trial-job-queue.ts; PostgreSQL: db/pg/trial-job-queue.ts).
 */
import type { CheckRecord } from "./types";

/** A trial handed to a worker. */
export interface ClaimedTrial {
  id: number;
  benchId: number;
  candidateId: number;
  benchCaseId: number;
  caseRevisionId: number;
  repeat: number;
  /** Deliveries of this trial so far (its current one included, once claimed). */
  attempts: number;
}

/** The end of one trial, as the worker reports it. Times in ms since epoch, latency in ms, cost in USD. */
export interface TrialOutcome {
  id: number;
  status: "done" | "error" | "skipped";
  startedAt: number;
  finishedAt: number;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  finishReason: string | null;
  output: string | null;
  /** JSON of the rest of the trial record (messages, steps, tool calls and results); null to save space. */
  record: string | null;
  checks: CheckRecord[] | null;
  error: string | null;
}
