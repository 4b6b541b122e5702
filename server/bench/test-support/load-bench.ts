/**
 * A load bench over HTTP for tests and figures (issue 20): a scripted OpenAI-compatible model server
 * on 127.0.0.1 that counts each case's requests (by the case text in the prompt) and its chat
 * requests in flight; a system whose N cases have one distinct text each and a `contains` check the
 * scripted answer passes; and the launch request for T trials over them (the app's launch path).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { addCases } from "@/db/queries/cases";
import { createModelConfig } from "@/db/queries/models";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { benchCases, trials } from "@/db/schema";
import { benchRequestSchema, type BenchRequest } from "@/lib/bench/request";
import { emptyCaseContent } from "@/lib/library/case-content";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

/** Most cases the suite holds; more trials are repeats of them (a bench allows up to 10). */
export const LOAD_CASES_MAX = 5_000;

/** The input text of load case `key`: unique per case, so the model server can tell trials apart. */
export const loadCaseText = (key: string) => `Case ${key}: reply with this case's key.`;
/** The case key in a request's last user text (null for any other text). */
const keyInText = (text: string) => /^Case (\S+): reply with this case's key\.$/.exec(text)?.[1] ?? null;

/** The counting model server: per case key, the chat requests it saw. */
export interface LoadModelServer {
  server: ScriptedModelServer;
  /** Chat requests seen per case key (a case absent has none). */
  requestsByCase: ReadonlyMap<string, number>;
  /** Chat requests whose text was not a load case's (should stay 0). */
  readonly otherRequests: number;
  close(): Promise<void>;
}

/**
 * Starts the model server on a free loopback port. Every answer is `Answer to <the user text>`,
 * after `latencyMs`.
 */
export async function startLoadModelServer(o: { latencyMs?: number } = {}): Promise<LoadModelServer> {
  const byCase = new Map<string, number>();
  let other = 0;
  const server = await startScriptedModelServer({
    latencyMs: o.latencyMs ?? 0,
    keepRequests: 0,
    defaultReply: { text: "Answer to {{lastUserText}}" },
    onChatRequest: (text) => {
      const key = keyInText(text);
      if (key === null) other++;
      else byCase.set(key, (byCase.get(key) ?? 0) + 1);
    },
  });
  return {
    server,
    requestsByCase: byCase,
    get otherRequests() {
      return other;
    },
    close: () => server.close(),
  };
}

/** The suite {@link seedLoadSuite} made. */
export interface LoadSuite {
  systemId: string;
  promptId: number;
  modelConfigId: number;
  caseKeys: string[];
}

/**
 * Creates system `load`, its prompt, `cases` cases (keys `load-0` …, each with its own text and a
 * `contains` check of `Answer to <text>`) and a model configuration on `baseUrl`.
 */
export async function seedLoadSuite(db: Db, o: { cases: number; baseUrl: string }): Promise<LoadSuite> {
  const systemId = "load";
  await createSystem(db, { id: systemId, name: "Load" });
  const promptId = await createPrompt(db, { systemId, name: "echo", systemPrompt: "Answer briefly." });
  const caseKeys = Array.from({ length: o.cases }, (_, i) => `load-${i}`);
  for (let i = 0; i < caseKeys.length; i += 1_000)
    await addCases(
      db,
      caseKeys.slice(i, i + 1_000).map((key) => ({
        systemId,
        promptId,
        caseKey: key,
        source: "custom" as const,
        content: { ...emptyCaseContent(), input: loadCaseText(key), expected: `Answer to ${loadCaseText(key)}`, evaluators: [{ kind: "contains" }] },
      })),
    );
  const modelConfigId = await createModelConfig(db, { name: "loopback", provider: "openai-compatible", modelId: "scripted-1", baseUrl: o.baseUrl });
  return { systemId, promptId, modelConfigId, caseKeys };
}

/**
 * The launch request of `trials` trials of the suite's model (one call each, no judge), checked by
 * the same schema as the New bench form: all cases × repeats, or a case budget when fewer trials.
 * @throws when `trials` needs more than 10 repeats of the suite's cases
 */
export function loadRequest(suite: LoadSuite, o: { trials: number; concurrency: number; timeoutSeconds?: number }): BenchRequest {
  const cases = suite.caseKeys.length;
  const repeats = Math.ceil(o.trials / cases);
  if (o.trials % Math.min(cases, o.trials) !== 0) throw new Error(`${o.trials} trials are not a whole number of repeats of ${cases} cases`);
  return benchRequestSchema.parse({
    systemId: suite.systemId,
    promptId: suite.promptId,
    candidates: [{ kind: "model", modelConfigId: suite.modelConfigId }],
    baseline: { kind: "none" },
    selection: { kind: "all" },
    budget: o.trials >= cases ? null : o.trials,
    repeats,
    concurrency: o.concurrency,
    timeoutSeconds: o.timeoutSeconds ?? 60,
    maxSteps: 1,
    judgeModelConfigId: null,
    launchKey: `load-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  });
}

/** One stored trial of a load bench, with its case key. */
export interface LoadTrialRow {
  id: number;
  caseKey: string;
  repeat: number;
  status: string;
  output: string | null;
  attempts: number;
  passedChecks: number;
  error: string | null;
}

/** Every trial row of bench `benchId` with its case key. */
export function loadTrialRows(db: Db, benchId: number): Promise<LoadTrialRow[]> {
  return db
    .select({
      id: trials.id,
      caseKey: benchCases.caseKey,
      repeat: trials.repeat,
      status: trials.status,
      output: trials.output,
      attempts: trials.attempts,
      passedChecks: trials.passedChecks,
      error: trials.error,
    })
    .from(trials)
    .innerJoin(benchCases, and(eq(benchCases.id, trials.benchCaseId), eq(benchCases.benchId, trials.benchId)))
    .where(eq(trials.benchId, benchId));
}

/**
 * Waits until `check` returns something other than null, undefined or false, looking every
 * `intervalMs` (default 100 ms).
 * @returns what `check` returned
 * @throws naming `what` (and `detail()`, when given) once `timeoutMs` passed: a cap, not a pace
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  o: { timeoutMs: number; intervalMs?: number; detail?: () => Promise<string> | string },
): Promise<T> {
  const end = Date.now() + o.timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`gave up after ${o.timeoutMs} ms waiting for ${what}${o.detail ? `: ${await o.detail()}` : ""}`);
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 100));
  }
}
