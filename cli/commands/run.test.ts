import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptFile, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import { migrateDatabase, openDatabase } from "@/db/client";
import { createModelConfig } from "@/db/queries/models";
import type { CaseListJson, SuiteResultJson } from "@/lib/suite/result";
import { main } from "../main";
import { captureIo } from "../testing";
import { runCommand } from "./run";

const EXAMPLE = path.resolve("examples/support-tool-use");
const script = JSON.parse(readFileSync("e2e/fixtures/model-scripts/support-tool-use.json", "utf8")) as Exclude<ScriptFile, ScriptRule[]>;
const dir = mkdtempSync(path.join(tmpdir(), "benchwork-run-cli-"));
let server: ScriptedModelServer;
let model: string[];

beforeAll(async () => {
  server = await startScriptedModelServer({ script: script.rules, models: script.models, defaultReply: script.defaultReply });
  model = ["--provider", "openai-compatible", "--base-url", server.url, "--model-id", "scripted-1"];
});
/** CLI processes started by tests; any still running at the end (a test that failed) are killed. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  return server.close();
});
afterEach(() => {
  server.setScript(script.rules);
  server.setLatency(0);
});

async function run(args: string[]) {
  const io = captureIo();
  const code = await main(["run", ...args], io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;

/** A benchmark repository in a temp folder; node_modules links to the project's, so `ai` and `zod` resolve. */
function benchmarkRepo(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "benchwork-repo-"));
  symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"), "dir");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Runs the real `benchwork` process; resolves with its exit code and output once it exits. */
function runProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["cli/bin.mjs", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

/** Resolves once the scripted server has received `n` requests in all (looking every 5 ms). */
async function requestsReach(n: number) {
  while (server.requests.count < n) await new Promise((r) => setTimeout(r, 5));
}

/** A model latency no case waits out: its call ends only by its timeout or a cancel. */
const NEVER_MS = 60_000;

describe("benchwork run examples/support-tool-use (scripted OpenAI-compatible server)", () => {
  it("exits 0 when every case passes, printing progress and a summary, and writes the JSON contract", async () => {
    const out = path.join(dir, "all", "results.json");
    const r = await run([EXAMPLE, ...model, "--json-output", out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("running 27 cases of Support tool use 1.0.0 on scripted-1 (command-line flags)");
    expect(r.out).toMatch(/\[1\/27\] PASS policy-lookup/);
    expect(r.out).toMatch(/\[27\/27\] PASS gsm8k-test-0019/);
    expect(r.out).toMatch(/Support tool use 1\.0\.0: 27 passed, 0 failed of 27 in [\d.]+ s — PASS/);
    const json = readJson<SuiteResultJson>(out);
    expect(json.schemaVersion).toBe(1);
    expect(json.summary).toMatchObject({ status: "PASS", total: 27, passed: 27, failed: 0, skipped: 0, timedOut: 0, errored: 0 });
    expect(json.results.map((x) => x.name).slice(0, 7)).toEqual([
      "policy-lookup",
      "delivered-order",
      "late-order",
      "unopened",
      "holiday",
      "policy-questions[2]",
      "policy-questions[3]",
    ]);
    const byName = new Map(json.results.map((x) => [x.name, x]));
    expect(byName.get("policy-lookup")).toMatchObject({
      tags: ["tools", "smoke"],
      toolsCalled: ["lookup_policy"],
      evaluatorPassed: true,
      judgePassed: null,
      reliabilityPassed: null,
      passed: true,
      output: "Unopened items may be returned within 30 days.",
    });
    expect(byName.get("delivered-order")).toMatchObject({
      toolsCalled: ["get_order"],
      evaluatorPassed: true,
      evaluatorScore: 1,
      evaluatorDetails: { usedExpectedTool: true, answerIsCorrect: true },
      output: '{"orderId":"order_123","eligible":true}',
    });
    expect(byName.get("policy-lookup")!.evaluatorDetails).toBeNull();
    expect(byName.get("policy-questions[2]")!.source).toEqual({
      module: "evals/policy-questions.ts",
      file: "evals/policy-questions.csv",
      row: 3,
      line: 4,
      index: 2,
    });
    expect(byName.get("gsm8k-test-0000")).toMatchObject({ evaluatorPassed: true, source: { file: "data/gsm8k-test-first20.jsonl", row: 1 } });
    expect(byName.get("holiday")!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);

  it("exits 1 when one case fails (a scripted wrong answer), naming it and why", async () => {
    server.setScript(
      script.rules.map((rule) => (rule.name === "late-order-answer" ? { ...rule, reply: { text: '{"orderId":"order_456","eligible":true}' } } : rule)),
    );
    const out = path.join(dir, "one-failure.json");
    const r = await run([EXAMPLE, ...model, "--json-output", out]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\[3\/27\] FAIL late-order \([\d.]+ s\): evaluator: The answer or the supporting get_order call was incorrect\./);
    expect(r.out).toMatch(/26 passed, 1 failed of 27 .* — FAIL/);
    const json = readJson<SuiteResultJson>(out);
    expect(json.summary).toMatchObject({ status: "FAIL", total: 27, passed: 26, failed: 1 });
    expect(json.results.find((x) => x.name === "late-order")).toMatchObject({
      passed: false,
      evaluatorPassed: false,
      evaluatorScore: 0.5,
      evaluatorDetails: { usedExpectedTool: true, answerIsCorrect: false },
      error: null,
    });
  }, 60_000);

  it("fails the reference's extraArguments: \"forbid\" check when the model sends an extra argument the tool's zod schema drops", async () => {
    server.setScript(
      script.rules.map((rule) =>
        rule.name === "policy-lookup-call" ? { ...rule, reply: { toolCalls: [{ name: "lookup_policy", arguments: { topic: "returns", lang: "en" } }] } } : rule,
      ),
    );
    const out = path.join(dir, "extra-argument.json");
    const r = await run([EXAMPLE, "--name", "policy-lookup", "-v", ...model, "--json-output", out]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('    lookup_policy({"topic":"returns","lang":"en"}) (the tool received {"topic":"returns"}) → {"topic":"returns","policy":');
    expect(r.out).toMatch(/FAILED tool_call_syntax: .*lang/);
    expect(readJson<SuiteResultJson>(out).results[0]).toMatchObject({
      name: "policy-lookup",
      evaluatorPassed: false,
      toolsCalled: ["lookup_policy"],
      passed: false,
      error: null,
    });
  }, 60_000);

  it("runs one variant with FILE::EVAL[ID] (by id or position), and --name / --tag", async () => {
    const one = await run([EXAMPLE, "examples/support-tool-use/evals/policy-questions.ts::policy-questions[holiday]", ...model]);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/1 passed, 0 failed of 1/);
    expect(one.out).toMatch(/PASS holiday/);
    const pos = await run([EXAMPLE, "evals/policy-questions.ts::policy-questions[3]", "--list"]);
    expect(pos.out).toMatch(/^policy-questions\[3\] /m);
    const named = await run([EXAMPLE, "--name", "gsm8k-test-0007", "--name", "unopened", ...model]);
    expect(named.code).toBe(0);
    expect(named.out).toMatch(/2 passed, 0 failed of 2/);
    // A parameterised case by its eval and given id (or position), as ezvals' `EVAL[ID]` names it.
    const byEval = await run([EXAMPLE, "--name", "policy-questions[holiday]", "--name", "policy-questions[3]", ...model]);
    expect(byEval.code).toBe(0);
    expect(byEval.out).toMatch(/PASS holiday/);
    expect(byEval.out).toMatch(/PASS policy-questions\[3\]/);
    expect(byEval.out).toMatch(/2 passed, 0 failed of 2/);
    const tagged = await run([EXAMPLE, "--tag", "edge", "--list"]);
    expect(tagged.out).toContain("late-order  (refund-decision; tags tools, edge; evals/refund-decision.ts)\n1 of 27 cases selected");
  }, 60_000);

  it("exits 2 when no case matches the selection", async () => {
    for (const args of [["--name", "nope"], ["--tag", "none"], ["evals/policy-lookup.ts::refunds[0]"], ["--name", "late-order", "--tag", "math"]]) {
      const r = await run([EXAMPLE, ...args, ...model]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(/no case matched .* \(the release has 27 cases; try --list\)/);
    }
  }, 60_000);

  it("exits 2, naming it, when one of several selectors matches no case (nothing runs)", async () => {
    const before = server.requests.count;
    for (const [args, named] of [
      [["--name", "policy-lookup", "--name", "typo"], "--name typo"],
      [["--tag", "smoke", "--tag", "nope"], "--tag nope"],
      [["--name", "holiday", "evals/policy-questions.ts::policy-questions[nope]"], "evals/policy-questions.ts::policy-questions[nope]"],
    ] as const) {
      const r = await run([EXAMPLE, ...args, ...model]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toContain(`benchwork: no case matched ${named} (the release has 27 cases; try --list)`);
      expect(r.out).not.toMatch(/running/);
    }
    const listed = await run([EXAMPLE, "--name", "policy-lookup", "--name", "typo", "--list"]);
    expect(listed.code).toBe(2);
    expect(server.requests.count).toBe(before);
  }, 60_000);

  it("exits 2 on usage errors", async () => {
    const cases: [string[], RegExp][] = [
      [[EXAMPLE, "--bogus"], /unknown option '--bogus'/],
      [[EXAMPLE, "--timeout", "soon", ...model], /--timeout must be a number/],
      [[EXAMPLE, "--concurrency", "0", ...model], /--concurrency must be a whole number/],
      [[EXAMPLE, EXAMPLE], /give at most one CONFIG/],
      [[EXAMPLE, "evals/x.ts::x[", ...model], /is not a selector/],
      [[path.join(dir, "nowhere")], /no such file or folder/],
      [[EXAMPLE], /no model: give --model NAME/],
      [
        [EXAMPLE, "--provider", "openai", "--model-id", "gpt-4o-mini", "--api-key-env", "BENCHWORK_TEST_UNSET_API_KEY"],
        /set the environment variable BENCHWORK_TEST_UNSET_API_KEY/,
      ],
      // The key policy: a variable outside the rule, and a key pointed at a host it is not bound to.
      [
        [EXAMPLE, ...model, "--api-key-env", "BENCHWORK_DB"],
        /^benchwork: model: BENCHWORK_DB is not an allowed API key variable: a key variable's name must end in _API_KEY/m,
      ],
      [
        [EXAMPLE, ...model, "--api-key-env", "OPENAI_API_KEY"],
        /^benchwork: model: The key in OPENAI_API_KEY may not be sent to http:\/\/127\.0\.0\.1:\d+ \(from the base URL\)/m,
      ],
    ];
    delete process.env.BENCHWORK_TEST_UNSET_API_KEY;
    const before = server.requests.log.length;
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect(server.requests.log.length).toBe(before);
  }, 60_000);

  it("exits 1 when the benchmark does not compile, listing the problems", async () => {
    const broken = mkdtempSync(path.join(tmpdir(), "benchwork-broken-"));
    writeFileSync(
      path.join(broken, "benchmark.config.ts"),
      `export default { protocolVersion: 1, title: "B", version: "1", license: "MIT", evals: ["a.ts"] };\n`,
    );
    writeFileSync(path.join(broken, "a.ts"), `export default { id: "a", prompt: "p" };\n`);
    const r = await run([broken, ...model]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      "benchwork: the benchmark does not compile (1 problem):\n  a.ts: the eval: has no checks: set evaluate, criteria or expectedToolCalls (on the case or its eval)",
    );
  }, 60_000);

  it("exits 1 when the JSON output cannot be written, after running and printing the summary", async () => {
    const file = path.join(dir, "a-file");
    writeFileSync(file, "x");
    const r = await run([EXAMPLE, "--name", "holiday", ...model, "--json-output", path.join(file, "results.json")]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/1 passed, 0 failed of 1 .* — PASS/);
    expect(r.err).toMatch(/cannot write .*a-file\/results\.json: (ENOTDIR|EEXIST)/);
    const list = await run([EXAMPLE, "--list", "--json-output", path.join(file, "list.json")]);
    expect(list.code).toBe(1);
  }, 60_000);

  it("--list lists without running (no model needed) and writes the list as JSON", async () => {
    const before = server.requests.count;
    const out = path.join(dir, "list.json");
    const r = await run([EXAMPLE, "--list", "--json-output", out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("policy-questions[2]  (policy-questions; tags policy; evals/policy-questions.csv row 3)");
    expect(r.out).toContain("27 of 27 cases selected");
    expect(server.requests.count).toBe(before);
    const list = readJson<CaseListJson>(out);
    expect(list).toMatchObject({ schemaVersion: 1, total: 27 });
    expect(list.cases[1]).toEqual({
      name: "delivered-order",
      eval: "refund-decision",
      tags: ["tools"],
      tools: ["get_order"],
      source: { module: "evals/refund-decision.ts", file: "evals/refund-decision.ts", index: 0 },
    });
  }, 60_000);

  it("-v prints each case's message, tool calls and response", async () => {
    const r = await run([EXAMPLE, "--name", "policy-lookup", "-v", ...model]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      [
        "  Message:",
        "    [system] You are a support agent. Look policies up with your tools before answering.",
        "    [user] Find the return policy for unopened items.",
        "  Tool calls:",
        '    lookup_policy({"topic":"returns"}) → {"topic":"returns","policy":"Unopened items may be returned within 30 days. Holiday purchases may be returned within 60 days."}',
        "  Response:",
        "    Unopened items may be returned within 30 days.",
        "  Checks:",
        "    PASSED tool_call_syntax: The tool calls match the expected 1 call.",
      ].join("\n"),
    );
  }, 60_000);

  it("-v prints the evidence (details) an evaluate function returned", async () => {
    server.setScript(
      script.rules.map((rule) => (rule.name === "late-order-answer" ? { ...rule, reply: { text: '{"orderId":"order_456","eligible":true}' } } : rule)),
    );
    const r = await run([EXAMPLE, "--name", "late-order", "-v", ...model]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      [
        "  Checks:",
        "    FAILED function: The answer or the supporting get_order call was incorrect.",
        '      details: {"usedExpectedTool":true,"answerIsCorrect":false}',
      ].join("\n"),
    );
  }, 60_000);

  it("marks a case that overruns --timeout as timed out (exit 1)", async () => {
    server.setLatency(NEVER_MS);
    const out = path.join(dir, "timeout.json");
    const r = await run([EXAMPLE, "--name", "holiday", "--timeout", "0.1", ...model, "--json-output", out]);
    expect(r.code).toBe(1);
    expect(readJson<SuiteResultJson>(out).results[0]).toMatchObject({ name: "holiday", timedOut: true, error: "run: timed out after 0.1 s", passed: false });
  }, 60_000);

  it("exits with its code once the results are written, although a timed-out case's tool ignores its abort signal and never returns", async () => {
    // The tool holds the event loop (an interval) and never settles: before the fix the process
    // printed the summary, wrote the JSON and then stayed alive for ever (this test's timeout).
    const repo = benchmarkRepo({
      "benchmark.config.ts": `export default { protocolVersion: 1, title: "Hang", version: "1", license: "MIT", tools: ["tools/slow.ts"], evals: ["evals/waits.ts"] };\n`,
      "tools/slow.ts": `import { tool } from "ai";
import { z } from "zod";
export const tools = {
  wait_forever: tool({ description: "Waits.", inputSchema: z.object({ ticket: z.string() }), execute: () => new Promise(() => { setInterval(() => {}, 1_000); }) }),
};
`,
      "evals/waits.ts": `export default { id: "waits", prompt: "Wait for the slow tool.", tools: ["wait_forever"], timeoutSeconds: 1, evaluate: { kind: "non_empty" } };\n`,
    });
    server.setScript([
      {
        name: "hang",
        when: { userText: "Wait for the slow tool.", hasToolResult: false },
        reply: { toolCalls: [{ name: "wait_forever", arguments: { ticket: "T-1" } }] },
      },
    ]);
    const out = path.join(dir, "never-returns.json");
    const r = await runProcess(["run", repo, ...model, "--json-output", out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`results → ${out}`);
    expect(r.stdout).toMatch(/Hang 1: 0 passed, 1 failed of 1 in [\d.]+ s — FAIL/);
    expect(readJson<SuiteResultJson>(out).results[0]).toMatchObject({ name: "waits", timedOut: true, passed: false, error: "run: timed out after 1 s" });
  }, 120_000);

  it("judges a case's criteria with its own judgeModel, the others with the run model", async () => {
    const judge = await startScriptedModelServer({
      models: ["judge-2"],
      script: [{ name: "judge", when: { systemIncludes: "impartial evaluator" }, reply: { text: '{"reason":"Case judge.","verdict":"pass"}' } }],
    });
    try {
      const repo = benchmarkRepo({
        "benchmark.config.ts": `export default { protocolVersion: 1, title: "Tone", version: "1", license: "MIT", evals: ["evals/tone.ts"] };\n`,
        "evals/tone.ts": `export default {
  id: "tone",
  criteria: "Answers politely",
  cases: [
    { id: "own-judge", prompt: "Say hello.", judgeModel: { provider: "openai-compatible", baseUrl: ${JSON.stringify(judge.url)}, modelId: "judge-2" } },
    { id: "run-model-judge", prompt: "Say goodbye." },
  ],
};
`,
      });
      server.setScript([
        { name: "run-model-judge", when: { systemIncludes: "impartial evaluator" }, reply: { text: '{"reason":"Run-model judge.","verdict":"fail"}' } },
        { name: "answer", when: { userTextMatches: "^Say " }, reply: { text: "Hello!" } },
      ]);
      const out = path.join(dir, "case-judge.json");
      const r = await run([repo, ...model, "--json-output", out]);
      expect(r.code).toBe(1);
      const results = readJson<SuiteResultJson>(out).results;
      expect(results.map((x) => [x.name, x.judgePassed, x.judgeReason])).toEqual([
        ["own-judge", true, "Judge: pass — Case judge."],
        ["run-model-judge", false, "Judge: fail — Run-model judge."],
      ]);
      expect(judge.requests.log.map((x) => (x.body as { model: string }).model)).toEqual(["judge-2"]);

      // Its key follows the same rules as every model's: missing → a usage error naming the case, before any call.
      const keyed = benchmarkRepo({
        "benchmark.config.ts": `export default { protocolVersion: 1, title: "Tone", version: "1", license: "MIT", evals: ["evals/tone.ts"] };\n`,
        "evals/tone.ts": `export default { id: "tone", prompt: "Say hello.", criteria: "Polite", judgeModel: { provider: "openai", modelId: "gpt-4o-mini", apiKeyEnv: "BENCHWORK_TEST_UNSET_API_KEY" } };\n`,
      });
      delete process.env.BENCHWORK_TEST_UNSET_API_KEY;
      const before = server.requests.count;
      const missing = await run([keyed, ...model]);
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/^benchwork: judge model of case "tone" \(evals\/tone\.ts\): .*BENCHWORK_TEST_UNSET_API_KEY/m);
      expect(server.requests.count).toBe(before);
    } finally {
      await judge.close();
    }
  }, 60_000);

  it("reports unrun cases as skipped when cancelled, still printing the summary and writing the JSON (exit 1)", async () => {
    // The model holds its answers: cancel while the first case waits for it (one case at a time).
    server.setLatency(NEVER_MS);
    const controller = new AbortController();
    const io = captureIo();
    const out = path.join(dir, "cancelled.json");
    const start = server.requests.count;
    const running = runCommand(
      [EXAMPLE],
      { provider: "openai-compatible", baseUrl: server.url, modelId: "scripted-1", jsonOutput: out, signal: controller.signal },
      io,
    );
    await requestsReach(start + 1);
    controller.abort();
    expect(await running).toBe(1);
    const json = readJson<SuiteResultJson>(out);
    expect(json.summary.total).toBe(27);
    expect(json.summary.skipped).toBe(26);
    expect(json.summary.status).toBe("FAIL");
    const skipped = json.results.filter((x) => x.skipped);
    expect(skipped.every((x) => x.passed === false && x.sessionId === "")).toBe(true);
    expect(json.results[0]).toMatchObject({ name: "policy-lookup", skipped: false, passed: false, error: "run: cancelled" });
    expect(io.stdout.join("\n")).toMatch(/skipped\) of 27 .* — FAIL/);
  }, 60_000);

  it("handles Ctrl-C (SIGINT) in the real CLI process: skipped cases, summary, JSON, exit 1", async () => {
    server.setLatency(NEVER_MS);
    const out = path.join(dir, "sigint.json");
    const start = server.requests.count;
    const child = spawn(process.execPath, ["cli/bin.mjs", "run", EXAMPLE, ...model, "--json-output", out], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // Ctrl-C while the first case waits for the model.
    await requestsReach(start + 1);
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    expect(stderr).toContain("cancelling: running cases stop, unrun cases are reported as skipped");
    expect(stdout).toMatch(/skipped\) of 27 in [\d.]+ s — FAIL/);
    const json = readJson<SuiteResultJson>(out);
    expect(json.summary.total).toBe(27);
    expect(json.summary.skipped).toBe(26);
    expect(json.results[0]).toMatchObject({ name: "policy-lookup", error: "run: cancelled" });
    expect(json.results.filter((x) => x.skipped).every((x) => !x.passed)).toBe(true);
  }, 60_000);

  it("uses a model configuration saved in the app with --model NAME", async () => {
    const file = path.join(dir, "models.db");
    const db = openDatabase(file);
    migrateDatabase(db);
    await createModelConfig(db, { name: "Scripted", provider: "openai-compatible", modelId: "scripted-1", baseUrl: server.url });
    db.$client.close();
    const saved = process.env.BENCHWORK_DB;
    process.env.BENCHWORK_DB = file;
    try {
      const r = await run([EXAMPLE, "--name", "unopened", "--model", "Scripted"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain('on scripted-1 (model configuration "Scripted")');
      const missing = await run([EXAMPLE, "--model", "Nope"]);
      expect(missing.code).toBe(2);
    } finally {
      if (saved === undefined) delete process.env.BENCHWORK_DB;
      else process.env.BENCHWORK_DB = saved;
    }
  }, 60_000);
});
