/**
 * `benchwork run [CONFIG] [FILE::EVAL[ID] …] [--name NAME] [--tag TAG] [--timeout SECONDS]
 *   [--json-output PATH] [--list] [-v] [--concurrency N] [--model NAME | --provider P --model-id ID
 *   --base-url URL --api-key-env VAR] [--judge-model NAME]` (issue #6)
 *
 * Compiles the benchmark repository, selects cases, and runs each through the agent against the
 * chosen model, printing one line per case (a redrawn progress line on a terminal) and a summary.
 * `--list` prints the selected cases without running them (with `--json-output`, writes the list).
 * Ctrl-C stops the run: unrun cases are reported as skipped, the summary is printed and the JSON
 * written; a second Ctrl-C quits at once.
 *
 * Exit codes: 0 every selected case passed (or `--list` succeeded); 1 a case failed, the benchmark
 * does not compile, or the JSON output could not be written; 2 a selector (or the selection) matched
 * no case, or a usage error (bad flag, no config, no model, missing API key — also of a case's own
 * judgeModel —, a key variable or host the key policy refuses).
 */
import path from "node:path";
import type { LanguageModel } from "ai";
import { KeyPolicyError, MissingApiKeyError, createModel } from "@/lib/runtime/providers";
import { ModelConfigError, type ModelConfig } from "@/lib/runtime/model-config";
import { createAgent } from "@/lib/suite/agent";
import { createChecker } from "@/lib/suite/checks";
import { isVariantSelector, parseVariantSelector, type VariantSelector } from "@/lib/suite/naming";
import { caseListToJson, suiteResultToJson } from "@/lib/suite/result";
import { runSuite } from "@/lib/suite/runner";
import { samePath, selectCases } from "@/lib/suite/select";
import type { ReleaseCase } from "@/lib/suite/types";
import { FunctionEvaluatorPool } from "@/server/suite/function-evaluator";
import { chooseModels } from "@/server/suite/model";
import { nodeFetch } from "@/server/http-fetch";
import { CliError, usage, writeJsonFile, type Io } from "../io";
import { loadForCli } from "../suite/common";
import { lineBuffer } from "../suite/output";
import { caseLine, listLine, summaryLines, verbosePanels } from "../suite/report";

/** Options of {@link runCommand} (commander's parsed flags). */
export interface RunOptions {
  name?: string[];
  tag?: string[];
  timeout?: string;
  jsonOutput?: string;
  list?: boolean;
  verbose?: boolean;
  concurrency?: string;
  model?: string;
  provider?: string;
  modelId?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  judgeModel?: string;
  /** Tests: cancels the run like Ctrl-C. */
  signal?: AbortSignal;
  /** Tests: the environment keys are read from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Tests: the deadline of one `evaluate` call in ms (default 5,000). */
  evaluatorTimeoutMs?: number;
}

function positiveNumber(value: string | undefined, flag: string, integer: boolean, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)) || n > max) {
    throw usage(
      integer
        ? `${flag} must be a whole number from 1 to ${max} (got "${value}")`
        : `${flag} must be a number of seconds above 0, at most ${max} (got "${value}")`,
    );
  }
  return n;
}

/** Identifies a case's own judge model block (null when it has none). */
function caseJudgeKey(c: ReleaseCase): string | null {
  return c.judgeModel ? JSON.stringify(c.judgeModel) : null;
}

async function lookupModelConfig(name: string): Promise<ModelConfig | null> {
  const { openMigratedStore } = await import("@/db/open-store");
  const { getModelConfigByName } = await import("@/db/queries/models");
  const store = await openMigratedStore();
  try {
    return await getModelConfigByName(store.db, name);
  } finally {
    await store.close();
  }
}

function buildModel(config: ModelConfig, env: Record<string, string | undefined>, role: string) {
  try {
    return createModel(config, env, nodeFetch);
  } catch (e) {
    if (e instanceof MissingApiKeyError || e instanceof KeyPolicyError || e instanceof ModelConfigError) throw usage(`${role}: ${e.message}`);
    throw e;
  }
}

/** Runs the command; returns the exit code. */
export async function runCommand(targets: string[], o: RunOptions, io: Io): Promise<number> {
  const timeout = positiveNumber(o.timeout, "--timeout", false, 86_400);
  const concurrency = positiveNumber(o.concurrency, "--concurrency", true, 256) ?? 1;
  const variants: VariantSelector[] = [];
  const plain: string[] = [];
  for (const t of targets) {
    if (!isVariantSelector(t)) {
      plain.push(t);
      continue;
    }
    const v = parseVariantSelector(t);
    if (!v) throw usage(`"${t}" is not a selector: write FILE::EVAL, FILE::EVAL[ID] or FILE::EVAL[N] (N = position)`);
    variants.push(v);
  }
  if (plain.length > 1)
    throw usage(`give at most one CONFIG (got ${plain.map((p) => `"${p}"`).join(", ")}); select cases with FILE::EVAL[ID], --name or --tag`);

  const b = await loadForCli(plain[0]);
  const { release } = b.compiled;
  const cwd = process.cwd();
  const fileMatches = (file: string, module: string) => samePath(file, module) || path.resolve(cwd, file) === path.resolve(b.root, module);
  const { selected, unmatched } = selectCases(b.compiled.cases, { names: o.name, tags: o.tag, variants }, fileMatches);
  const inRelease = `(the release has ${release.cases.length} case${release.cases.length === 1 ? "" : "s"}; try --list)`;
  // A selector that matches nothing is a typo or a stale name: CI must not go green without it.
  if (unmatched.length > 0) throw usage(`no case matched ${unmatched.join(", ")} ${inRelease}`);
  if (selected.length === 0) {
    const what = [...(o.name ?? []).map((n) => `--name ${n}`), ...(o.tag ?? []).map((t) => `--tag ${t}`), ...variants.map((v) => v.text)].join(" ");
    throw usage(`no case matched ${what ? `${what} together` : "the selection"} ${inRelease}`);
  }

  if (o.list) {
    for (const c of selected) io.out(listLine(c));
    io.out(`${selected.length} of ${release.cases.length} cases selected`);
    if (o.jsonOutput) writeJsonFile(o.jsonOutput, caseListToJson(selected, release));
    return 0;
  }

  const env = o.env ?? process.env;
  const choice = await chooseModels(o, b.config, lookupModelConfig);
  if (!choice.ok) throw usage(choice.message);
  const model = buildModel(choice.model, env, "model");
  const judged = selected.filter((c) => c.criteria !== null);
  const judgeModel = judged.some((c) => c.judgeModel === null) ? buildModel(choice.judge, env, "judge model") : null;
  // Cases with their own judgeModel: one model per distinct block, built (and its key checked) before anything runs.
  const caseJudges = new Map<string, LanguageModel>();
  for (const c of judged) {
    const key = caseJudgeKey(c);
    if (key !== null && !caseJudges.has(key)) caseJudges.set(key, buildModel(c.judgeModel!, env, `judge model of case "${c.id}" (${c.source.file})`));
  }
  const pool = selected.some((c) => c.evaluatorFunction)
    ? new FunctionEvaluatorPool({ code: b.compiled.evaluateCode, ...(o.evaluatorTimeoutMs !== undefined ? { timeoutMs: o.evaluatorTimeoutMs } : {}) })
    : null;

  const controller = new AbortController();
  const onExternalAbort = () => controller.abort(o.signal?.reason);
  o.signal?.addEventListener("abort", onExternalAbort, { once: true });
  let interrupted = false;
  const onInt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    io.err("\ncancelling: running cases stop, unrun cases are reported as skipped (Ctrl-C again to quit now)");
    controller.abort(new Error("cancelled by the user"));
  };
  process.on("SIGINT", onInt);

  io.out(
    `running ${selected.length} case${selected.length === 1 ? "" : "s"} of ${release.title} ${release.version} on ${choice.model.modelId} (${choice.source})`,
  );
  const started = performance.now();
  let done = 0;
  let passed = 0;
  const lines = lineBuffer((chunk) => io.out(chunk), { immediate: io.tty });
  let lastDraw = 0;
  const progress = (line: string | null) => {
    if (!io.tty) return;
    const now = performance.now();
    if (line !== null && now - lastDraw < 50 && done < selected.length) return;
    lastDraw = now;
    process.stdout.write(line === null ? "\r\x1b[K" : `\r\x1b[K${line}`);
  };
  const suite = await runSuite(selected, {
    agent: createAgent({
      model,
      tools: b.compiled.tools,
      ...(choice.model.temperature !== undefined ? { temperature: choice.model.temperature } : {}),
      ...(choice.model.maxOutputTokens !== undefined ? { maxOutputTokens: choice.model.maxOutputTokens } : {}),
    }),
    checker: createChecker({ judgeModel, judgeModelOf: (c) => caseJudges.get(caseJudgeKey(c) ?? ""), ...(pool ? { functionEvaluator: pool.run } : {}) }),
    ...(timeout !== undefined ? { defaultTimeoutSeconds: timeout } : {}),
    concurrency,
    signal: controller.signal,
    onCaseEnd: (c, r, detail) => {
      done++;
      if (r.passed) passed++;
      const quiet = io.tty && !o.verbose && (r.passed || r.skipped);
      if (!quiet) {
        if (io.tty) process.stdout.write("\r\x1b[K");
        lines.line(caseLine(r, done, selected.length));
        if (o.verbose && !r.skipped) for (const l of verbosePanels(c, r, detail)) lines.line(l);
      }
      progress(`[${done}/${selected.length}] ${passed} passed · ${done - passed} failed`);
    },
  });
  lines.flush();
  progress(null);
  process.off("SIGINT", onInt);
  o.signal?.removeEventListener("abort", onExternalAbort);
  await pool?.close();
  const seconds = (performance.now() - started) / 1000;

  for (const l of summaryLines(suite, `${release.title} ${release.version}`, seconds)) io.out(l);
  let code = suite.status === "PASS" ? 0 : 1;
  if (o.jsonOutput) {
    try {
      writeJsonFile(o.jsonOutput, suiteResultToJson(suite, { release, cases: selected, durationSeconds: seconds }));
      io.out(`results → ${o.jsonOutput}`);
    } catch (e) {
      io.err(`benchwork: ${(e as CliError).message}`);
      code = 1;
    }
  }
  return code;
}
