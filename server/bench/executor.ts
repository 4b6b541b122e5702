/**
 * Runs the trials of a bench (DESIGN.md §4 steps 4–5): renders the prompt, calls the model
 * through the ai SDK with the case's tools (or reads the recorded output), then scores every check.
 * Model and provider failures end the trial as `error` with the provider's message — never as a
 * model failure. Keys come from the environment passed in and never leave the server.
 */
import type { LanguageModel } from "ai";
import type { Db } from "@/db/client";
import { getBench, type BenchCandidate } from "@/db/queries/benches";
import { caseRevisionReader } from "@/db/queries/cases";
import { getPromptRevision, type PromptRevision } from "@/db/queries/prompt-revisions";
import type { ClaimedTrial, TrialOutcome } from "@/lib/bench/queue";
import { checkSlots, scoreTrial, type CheckSlot } from "@/lib/bench/score";
import { bareOutcome, type TrialExecutor, type TrialLimits } from "@/lib/bench/worker";
import { runChecks } from "@/lib/evaluators/registry";
import type { CustomEvaluatorSandbox } from "@/lib/evaluators/sandbox";
import type { CaseContent } from "@/lib/library/case-content";
import { describeTrialError } from "@/lib/runtime/errors";
import { costUsd } from "@/lib/runtime/model-config";
import { meteredModel, type CallSlot } from "@/lib/runtime/metered-model";
import { structuredOutputModel } from "@/lib/runtime/json-mode";
import { createModel } from "@/lib/runtime/providers";
import { recordedTrial, isMissingRecording } from "@/lib/runtime/recorded";
import { renderPrompt } from "@/lib/runtime/render";
import { runModelTrialWithRetries } from "@/lib/runtime/run-trial";
import { exposedTools } from "@/lib/runtime/tools";
import { effectiveCallSettings } from "@/lib/prompts/settings";
import type { TrialRecord } from "@/lib/runtime/trial-record";
import { providerKeyOf, providerKeyOfConfig } from "./provider-key";

/** Options of the executor factory. */
export interface ExecutorOptions {
  env: Record<string, string | undefined>;
  /** Starts (or returns) the sandbox for custom checks; called by the first custom check that runs. */
  sandbox?: () => Promise<CustomEvaluatorSandbox>;
  fetch?: typeof globalThis.fetch;
  /** Retries of rate-limit and server errors per trial (default 3). */
  retries?: number;
  /** First retry delay in ms, doubled each time with jitter (default 500). */
  retryBaseDelayMs?: number;
  /** Keep the full record (messages, steps) of each trial (default true). */
  keepRecord?: boolean;
}

const errorOutcome = (id: number, startedAt: number, message: string): TrialOutcome => bareOutcome(id, "error", message, Date.now(), startedAt);

/** Builds the executors of benches, one per bench id, cached while the bench runs. */
export function createExecutorFactory(db: Db, o: ExecutorOptions): (benchId: number) => Promise<TrialExecutor> {
  const cache = new Map<number, Promise<TrialExecutor>>();
  return (benchId) => {
    let e = cache.get(benchId);
    if (!e) {
      e = buildExecutor(db, benchId, o);
      cache.set(benchId, e);
      e.catch(() => cache.delete(benchId));
      // Executors hold the bench's case contents: drop them some time after the bench is done.
      if (cache.size > 16) cache.delete(cache.keys().next().value!);
    }
    return e;
  };
}

async function buildExecutor(db: Db, benchId: number, o: ExecutorOptions): Promise<TrialExecutor> {
  const bench = await getBench(db, benchId);
  if (!bench) throw new Error(`bench #${benchId} does not exist`);
  const contentOf = caseRevisionReader(db);
  const candidates = new Map<number, BenchCandidate>(bench.candidates.map((c) => [c.id, c]));
  const revisions = new Map<number, PromptRevision>();
  for (const c of bench.candidates)
    if (c.promptRevisionId && !revisions.has(c.promptRevisionId)) revisions.set(c.promptRevisionId, (await getPromptRevision(db, c.promptRevisionId))!);
  const models = new Map<number, LanguageModel | Error>();
  const modelOf = (c: BenchCandidate): LanguageModel | Error => {
    let m = models.get(c.id);
    if (!m) {
      try {
        m = createModel(c.modelConfig!, o.env, o.fetch);
      } catch (e) {
        m = e as Error;
      }
      models.set(c.id, m);
    }
    return m;
  };
  let judge: LanguageModel | null = null;
  let judgeError: string | null = null;
  if (bench.judge) {
    try {
      judge = structuredOutputModel(createModel(bench.judge, o.env, o.fetch), bench.judge);
    } catch (e) {
      judgeError = (e as Error).message;
    }
  }
  const slots = new Map<number, CheckSlot[]>();
  const slotsOf = (rev: number, content: CaseContent) => {
    let s = slots.get(rev);
    if (!s) slots.set(rev, (s = checkSlots(content, bench.rubric, bench.settings.defaultChecks)));
    return s;
  };
  const keepRecord = o.keepRecord ?? true;

  const judgeKey = bench.judge ? providerKeyOfConfig(bench.judge) : null;

  return {
    providerKey: (t: ClaimedTrial) => providerKeyOf(candidates.get(t.candidateId)),
    judgeProviderKey: judgeKey,
    gatesCalls: true,
    async run(t: ClaimedTrial, signal: AbortSignal, limits: TrialLimits, started = () => {}): Promise<TrialOutcome> {
      const startedAt = Date.now();
      // Each model call — the candidate's and the judge's — takes a slot of its provider's limit.
      const gate = limits?.calls;
      const slotOf = (key: string | null): CallSlot | null => (gate && key ? { acquire: (s) => gate.acquire(key, s), release: () => gate.release(key) } : null);
      const c = candidates.get(t.candidateId);
      const content = await contentOf(t.caseRevisionId);
      if (!c || !content) return errorOutcome(t.id, startedAt, "the case revision or candidate of this trial is no longer stored");
      let record: TrialRecord;
      let unscored: string | null = null;
      let tools: string[] = [];
      let system = "";
      if (c.kind === "recorded") {
        started();
        const r = recordedTrial(content, c.recordedName!);
        if (isMissingRecording(r)) return bareOutcome(t.id, "skipped", r.reason, Date.now(), startedAt);
        record = r;
      } else {
        const model = modelOf(c);
        if (model instanceof Error) return errorOutcome(t.id, startedAt, model.message);
        const rev = revisions.get(c.promptRevisionId!)!;
        const rendered = renderPrompt({ systemPrompt: rev.systemPrompt, content });
        system = rendered.system;
        if (rendered.unreplayable.length) {
          const u = rendered.unreplayable[0];
          unscored = `not scored: history turn ${u.index + 1} (${u.role}) cannot be replayed (${u.reason}), so the model did not see the whole conversation`;
        }
        const exposed = exposedTools(rev.tools, content);
        tools = exposed.map((x) => x.name);
        // An attempt counts when the trial's first model call starts (its provider slot taken, the
        // request about to go): a worker that dies while the trial only waits has spent nothing.
        let counted = false;
        const onModelCall = () => {
          if (counted) return;
          counted = true;
          started();
        };
        record = await runModelTrialWithRetries(
          {
            model,
            system: rendered.system,
            messages: rendered.messages,
            tools: exposed,
            maxSteps: bench.settings.maxSteps,
            // One precedence rule (README "Prompts"): the revision's settings win over the configuration's defaults.
            ...effectiveCallSettings(rev.modelSettings, c.modelConfig!),
            timeoutMs: bench.settings.timeoutMs,
            abortSignal: signal,
            slot: slotOf(providerKeyOf(c)),
            onModelCall,
          },
          { retries: o.retries ?? 3, baseDelayMs: o.retryBaseDelayMs ?? 500 },
        );
        if (record.error) {
          const out = errorOutcome(t.id, startedAt, describeTrialError(record.error));
          return {
            ...out,
            latencyMs: Math.round(record.latencyMs),
            record: keepRecord ? JSON.stringify({ renderedMessages: record.renderedMessages, attempts: record.attempts }) : null,
          };
        }
      }
      const checks = await scoreTrial(
        slotsOf(t.caseRevisionId, content),
        {
          output: record.output,
          caseData: content.data,
          toolCalls: record.toolCalls,
          normalizedToolCalls: record.normalizedToolCalls,
          finishReason: record.finishReason,
          usage: record.usage,
          context: { input: content.input, expected: content.expected, history: content.history, tools, systemPrompt: system },
        },
        (specs, trial) =>
          runChecks(specs, trial, { judge: { model: judge && gate ? meteredModel(judge, { slot: slotOf(judgeKey) }) : judge }, sandbox: o.sandbox }),
        unscored,
      );
      if (judgeError)
        for (const ch of checks)
          if (ch.kind === "judge" && ch.verdict === "unscored") ch.message = `not scored: the judge model could not be used (${judgeError})`;
      if (bench.judge) for (const ch of checks) if (ch.usage) ch.usage.costUsd = costUsd(ch.usage, bench.judge);
      return {
        id: t.id,
        status: "done",
        startedAt,
        finishedAt: Date.now(),
        latencyMs: Math.round(record.latencyMs),
        inputTokens: record.usage.inputTokens,
        outputTokens: record.usage.outputTokens,
        costUsd: c.kind === "model" ? costUsd(record.usage, c.modelConfig!) : null,
        finishReason: record.finishReason,
        output: record.output,
        record: keepRecord
          ? JSON.stringify(
              c.kind === "model"
                ? {
                    renderedMessages: record.renderedMessages,
                    steps: record.steps,
                    toolCalls: record.toolCalls,
                    toolResults: record.toolResults,
                    attempts: record.attempts,
                    warnings: record.warnings,
                    calls: record.calls,
                    waitMs: record.waitMs,
                    wallMs: record.wallMs,
                  }
                : { toolCalls: record.toolCalls },
            )
          : null,
        checks,
        error: null,
      };
    },
  };
}
