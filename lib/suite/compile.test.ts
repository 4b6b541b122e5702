import { describe, expect, it } from "vitest";
import { tool } from "ai";
import { z } from "zod";
import { sha256Hex } from "./canonical";
import { compileBenchmark, formatProblem, releaseHash, type BenchmarkSources, type CompileProblem, type EvaluateCompiler, type LoadedModule } from "./compile";
import type { ParsedBenchmarkConfig } from "./config";
import type { Release, SuiteCase } from "./types";
import { LIMITS } from "../library/limits";

const tools = {
  lookup_policy: tool({
    description: "Look up a policy.",
    inputSchema: z.object({ topic: z.string() }),
    execute: async ({ topic }) => ({ topic, policy: "30 days" }),
  }),
  get_order: tool({
    description: "Look up an order.",
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, eligible: true }),
  }),
};

const config: ParsedBenchmarkConfig = { protocolVersion: 1, title: "T", version: "1.0.0", license: "MIT", tools: ["tools/api.ts"], evals: [] };

/** Sources with one tools module, the given eval modules (file → default export) and data files. */
function sources(evals: Record<string, unknown>, files: Record<string, string> = {}, extra: Partial<BenchmarkSources> = {}): BenchmarkSources {
  const evalModules: LoadedModule[] = Object.entries(evals).map(([file, value]) => ({ file, value }));
  return {
    configFile: "benchmark.config.ts",
    config: { ...config, evals: Object.keys(evals) },
    toolModules: [{ file: "tools/api.ts", value: { tools } }],
    evalModules,
    readFile: (file) => {
      if (!(file in files)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: "ENOENT" });
      return new TextEncoder().encode(files[file]);
    },
    ...extra,
  };
}

async function ok(src: BenchmarkSources): Promise<{ release: Release; cases: SuiteCase[] }> {
  const r = await compileBenchmark(src);
  if (!r.ok) throw new Error(r.problems.map(formatProblem).join("\n"));
  return r.compiled;
}

async function problems(src: BenchmarkSources): Promise<CompileProblem[]> {
  const r = await compileBenchmark(src);
  if (r.ok) throw new Error("expected compile problems");
  return r.problems;
}

const contains = { kind: "contains" } as const;

describe("compileBenchmark: cases, names and inheritance", () => {
  it("compiles a single-case eval under the eval's id, with source and resolved fields", async () => {
    const { release, cases } = await ok(
      sources({
        "evals/lookup.ts": {
          id: "policy-lookup",
          prompt: "Find the return policy.",
          tools: ["lookup_policy"],
          evaluate: { kind: "non_empty" },
          labels: ["smoke"],
        },
      }),
    );
    expect(release.cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      id: "policy-lookup",
      evalId: "policy-lookup",
      givenId: true,
      prompt: "Find the return policy.",
      tools: ["lookup_policy"],
      evaluators: [{ kind: "non_empty" }],
      labels: ["smoke"],
      source: { module: "evals/lookup.ts", file: "evals/lookup.ts", index: 0 },
    });
    expect(release.tools.map((t) => t.name)).toEqual(["lookup_policy", "get_order"]);
    expect(release.tools[0].inputSchema).toMatchObject({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] });
    expect(release.evals).toEqual([{ id: "policy-lookup", title: null, module: "evals/lookup.ts", dataFile: null, caseCount: 1 }]);
  });

  it("names cases without an id EVAL[position] and keeps given ids exactly as written (never prefixed)", async () => {
    const { cases } = await ok(
      sources({
        "evals/refunds.ts": {
          id: "refunds",
          systemPrompt: "Answer briefly.",
          evaluate: contains,
          labels: ["policy"],
          metadata: { owner: "support" },
          cases: [
            { prompt: "Unopened window?", expected: "30 days" },
            { id: "holiday window", prompt: "Holiday window?", expected: "60 days", labels: ["edge"] },
            { prompt: "Damaged items?", expected: "replace", systemPrompt: null, metadata: { owner: "qa", tier: 2 } },
          ],
        },
      }),
    );
    expect(cases.map((c) => c.id)).toEqual(["refunds[0]", "holiday window", "refunds[2]"]);
    expect(cases.map((c) => c.givenId)).toEqual([false, true, false]);
    expect(cases[0].systemPrompt).toBe("Answer briefly.");
    expect(cases[2].systemPrompt).toBeNull();
    expect(cases[1].labels).toEqual(["policy", "edge"]);
    expect(cases[2].metadata).toEqual({ owner: "qa", tier: 2 });
    expect(cases[2].source).toEqual({ module: "evals/refunds.ts", file: "evals/refunds.ts", index: 2 });
  });

  it("expands a CSV: allowed columns only, empty cells inherit, positional names, file and data row in the source", async () => {
    const csv = 'id,prompt,expected,description\nunopened,"What is the unopened window?",30 days,Standard\n,"What is the holiday\nwindow?",60 days,\n';
    const { release, cases } = await ok(
      sources(
        { "evals/refunds.ts": { id: "refunds", description: "Return windows", evaluate: contains, cases: "./refunds.csv" } },
        { "evals/refunds.csv": csv },
      ),
    );
    expect(cases.map((c) => c.id)).toEqual(["unopened", "refunds[1]"]);
    expect(cases[1]).toMatchObject({ prompt: "What is the holiday\nwindow?", expected: "60 days", description: "Return windows" });
    expect(cases[0].description).toBe("Standard");
    expect(cases[1].source).toEqual({ module: "evals/refunds.ts", file: "evals/refunds.csv", row: 2, line: 3, index: 1 });
    expect(release.evals[0]).toMatchObject({ dataFile: "evals/refunds.csv", caseCount: 2 });
  });

  it("expands JSONL with overrides of tools, systemPrompt, data and a declarative evaluate", async () => {
    const jsonl = [
      JSON.stringify({ id: "a", prompt: "p1", expected: "x" }),
      "",
      JSON.stringify({ prompt: "p2", tools: ["get_order"], systemPrompt: "S2", data: { k: 1 }, evaluate: { kind: "exact", expected: "ok" } }),
    ].join("\n");
    const { cases } = await ok(
      sources({ "evals/j.ts": { id: "j", tools: ["lookup_policy"], evaluate: contains, cases: "data/j.jsonl" } }, { "evals/data/j.jsonl": jsonl }),
    );
    expect(cases.map((c) => c.id)).toEqual(["a", "j[1]"]);
    expect(cases[0]).toMatchObject({ tools: ["lookup_policy"], evaluators: [{ kind: "contains" }] });
    expect(cases[1]).toMatchObject({ tools: ["get_order"], systemPrompt: "S2", data: { k: 1 }, evaluators: [{ kind: "exact", expected: "ok" }] });
    expect(cases[1].source).toMatchObject({ file: "evals/data/j.jsonl", row: 2, line: 3 });
  });

  it("records an evaluate function by module, export path and the hash of its compiled script, and keeps setup/teardown on the suite case only", async () => {
    const evaluate = ({ output }: { output: string }) => output.length > 0;
    const setup = () => 1;
    const compiled: string[] = [];
    const compileEvaluate: EvaluateCompiler = async (module, exportPath) => {
      compiled.push(`${module} ${exportPath}`);
      const code = `var evaluate = /* ${module} ${exportPath} */ () => true;`;
      return { ok: true, bundle: { code, sha256: sha256Hex(code), files: [module, "evals/helpers.ts"] } };
    };
    const r = await compileBenchmark(
      sources(
        {
          "evals/f.ts": {
            id: "f",
            prompt: "p",
            evaluate,
            setup,
            cases: [{ id: "one" }, { id: "two", evaluate: () => true, teardown: () => {} }, { id: "three" }],
          },
        },
        {},
        { compileEvaluate },
      ),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const { release, cases, evaluateCode } = r.compiled;
    // One compile per function, however many cases share it.
    expect(compiled).toEqual(["evals/f.ts evaluate", "evals/f.ts cases[1].evaluate"]);
    const script = "var evaluate = /* evals/f.ts evaluate */ () => true;";
    expect(cases[0].evaluatorFunction).toEqual({
      module: "evals/f.ts",
      exportPath: "evaluate",
      source: String(evaluate),
      sha256: sha256Hex(script),
      files: ["evals/f.ts", "evals/helpers.ts"],
    });
    expect(cases[2].evaluatorFunction!.sha256).toBe(sha256Hex(script));
    expect(evaluateCode.get(sha256Hex(script))).toBe(script);
    expect(cases[1].evaluatorFunction?.exportPath).toBe("cases[1].evaluate");
    expect(cases[0].setup).toBe(setup);
    expect(cases[1]).toMatchObject({ hasSetup: true, hasTeardown: true });
    expect(JSON.stringify(release)).not.toMatch(/"setup"/);
    expect("setup" in release.cases[0]).toBe(false);
  });

  it("fails when an evaluate function cannot be compiled for the sandbox, naming the module and the function", async () => {
    const compileEvaluate: EvaluateCompiler = async (_module, exportPath) =>
      exportPath === "evaluate"
        ? { ok: false, message: 'it needs "node:fs" (imported by evals/h.ts), which cannot run in the evaluator sandbox' }
        : { ok: false, message: "it could not be bundled: x" };
    const p = await problems(
      sources(
        { "evals/f.ts": { id: "f", prompt: "p", evaluate: () => true, cases: [{ id: "one" }, { id: "two", evaluate: () => true }] } },
        {},
        { compileEvaluate },
      ),
    );
    expect(p).toEqual([
      { file: "evals/f.ts", message: `the eval's evaluate: it needs "node:fs" (imported by evals/h.ts), which cannot run in the evaluator sandbox` },
      { file: "evals/f.ts", message: `cases[1] ("two") evaluate: it could not be bundled: x` },
    ]);
    const without = await problems(sources({ "evals/f.ts": { id: "f", prompt: "p", evaluate: () => true } }));
    expect(without[0].message).toMatch(/no compiler for evaluate functions/);
  });

  it("turns criteria and expectedToolCalls into checks (a case with only those compiles)", async () => {
    const { cases } = await ok(
      sources({
        "evals/j.ts": {
          id: "j",
          prompt: "p",
          tools: ["get_order"],
          criteria: "Is polite",
          judgeMode: "numeric",
          judgeThreshold: 8,
          expectedToolCalls: ["get_order"],
          allowAdditionalToolCalls: false,
        },
      }),
    );
    expect(cases[0]).toMatchObject({
      criteria: "Is polite",
      judgeMode: "numeric",
      judgeThreshold: 8,
      expectedToolCalls: ["get_order"],
      allowAdditionalToolCalls: false,
      evaluators: [],
      judgeModel: null,
    });
  });

  it("keeps a per-case judgeModel (a model block like the config's), inherited from the eval, replaced or cleared by a case and a JSONL row", async () => {
    const strict = { provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", modelId: "judge-large" };
    const { cases } = await ok(
      sources(
        {
          "evals/tone.ts": {
            id: "tone",
            criteria: "Is polite",
            judgeModel: strict,
            cases: [
              { id: "inherits", prompt: "a" },
              { id: "own", prompt: "b", judgeModel: { provider: "openai", modelId: "gpt-4o-mini", apiKeyEnv: "JUDGE_API_KEY" } },
              { id: "cleared", prompt: "c", judgeModel: null },
            ],
          },
          "evals/rows.ts": { id: "rows", criteria: "Is polite", cases: "rows.jsonl" },
        },
        { "evals/rows.jsonl": JSON.stringify({ id: "row-judge", prompt: "d", judgeModel: { provider: "anthropic", modelId: "claude-sonnet-4-5" } }) + "\n" },
      ),
    );
    expect(cases.map((c) => [c.id, c.judgeModel])).toEqual([
      ["inherits", { name: "judge-large", ...strict }],
      ["own", { name: "gpt-4o-mini", provider: "openai", modelId: "gpt-4o-mini", apiKeyEnv: "JUDGE_API_KEY" }],
      ["cleared", null],
      ["row-judge", { name: "claude-sonnet-4-5", provider: "anthropic", modelId: "claude-sonnet-4-5" }],
    ]);
  });

  it("fails on an invalid judgeModel, naming the case and the field", async () => {
    const p = await problems(
      sources({
        "evals/tone.ts": {
          id: "tone",
          criteria: "Is polite",
          cases: [
            { id: "a", prompt: "a", judgeModel: { provider: "openai-compatible", modelId: "j" } },
            { id: "b", prompt: "b", judgeModel: "gpt-4o" },
          ],
        },
      }),
    );
    expect(p.map(formatProblem)).toEqual([
      'evals/tone.ts: cases[1]: judgeModel must be a model block like { provider: "openai-compatible", modelId: "llama3.1", baseUrl: "http://127.0.0.1:11434/v1" } (got a string)',
      expect.stringMatching(/^evals\/tone\.ts: cases\[0\] \("a"\): judgeModel\.baseUrl: /),
    ]);
  });
});

describe("compileBenchmark: hashes", () => {
  const evals = () => ({ "evals/a.ts": { id: "a", prompt: "p", evaluate: contains, expected: "x", cases: [{ id: "x1" }, { prompt: "q" }] } });

  it("gives the same release and content hash for the same sources", async () => {
    const one = (await ok(sources(evals()))).release;
    const two = (await ok(sources(evals()))).release;
    expect(one.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(two).toEqual(one);
    expect(releaseHash(one)).toBe(one.contentHash);
  });

  it("gives another hash when a case changes", async () => {
    const one = (await ok(sources(evals()))).release;
    const changed = evals();
    changed["evals/a.ts"].cases[1].prompt = "q2";
    expect((await ok(sources(changed))).release.contentHash).not.toBe(one.contentHash);
  });
});

describe("compileBenchmark: errors name the file and row", () => {
  it("fails on a duplicate case id, naming both sources", async () => {
    const p = await problems(
      sources(
        {
          "evals/a.ts": { id: "a", prompt: "p", evaluate: contains, expected: "x", cases: [{ id: "dup" }] },
          "evals/b.ts": { id: "b", evaluate: contains, cases: "b.csv" },
        },
        { "evals/b.csv": "id,prompt,expected\nok,p,x\ndup,p,x\n" },
      ),
    );
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ file: "evals/b.csv", row: 2 });
    expect(p[0].message).toContain('duplicate case id "dup": used by evals/a.ts cases[0] and by evals/b.csv row 2');
  });

  it("fails when a single-case eval's id equals another eval's case id", async () => {
    const p = await problems(
      sources({
        "evals/a.ts": { id: "a", prompt: "p", evaluate: { kind: "non_empty" } },
        "evals/b.ts": { id: "b", prompt: "p", evaluate: { kind: "non_empty" }, cases: [{ id: "a" }] },
      }),
    );
    expect(p[0].message).toContain('duplicate case id "a": used by evals/a.ts and by evals/b.ts cases[0]');
  });

  it("fails on an unknown tool name, naming the data file row", async () => {
    const p = await problems(
      sources(
        { "evals/j.ts": { id: "j", evaluate: contains, cases: "j.jsonl" } },
        { "evals/j.jsonl": '{"prompt":"p","expected":"x","tools":["refund_money"]}\n' },
      ),
    );
    expect(p).toEqual([
      {
        file: "evals/j.jsonl",
        row: 1,
        line: 1,
        message: expect.stringContaining('unknown tool "refund_money" (the tools modules define lookup_policy, get_order)'),
      },
    ]);
  });

  it("fails on an unknown tool in an inline case, naming the module and case", async () => {
    const p = await problems(sources({ "evals/a.ts": { id: "a", evaluate: { kind: "non_empty" }, cases: [{ prompt: "p", tools: ["nope"] }] } }));
    expect(formatProblem(p[0])).toBe('evals/a.ts: cases[0] ("a[0]"): unknown tool "nope" (the tools modules define lookup_policy, get_order)');
  });

  it("fails on a missing data file, naming the module and the path", async () => {
    const p = await problems(sources({ "evals/a.ts": { id: "a", evaluate: contains, cases: "./missing.csv" } }));
    expect(p).toEqual([{ file: "evals/a.ts", message: 'cases file "./missing.csv" (evals/missing.csv) cannot be read: file not found' }]);
  });

  it("fails on a bad CSV column, naming it and the allowed ones", async () => {
    const p = await problems(
      sources({ "evals/a.ts": { id: "a", evaluate: contains, cases: "a.csv" } }, { "evals/a.csv": "id,prompt,expected,tools\nx,p,e,lookup_policy\n" }),
    );
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ file: "evals/a.csv", line: 1 });
    expect(p[0].message).toMatch(/column "tools" is not allowed: CSV cases may only have the columns id, prompt, expected, description/);
  });

  it("fails on a CSV eval whose evaluate is not non_empty, exact or contains, and says why", async () => {
    for (const evaluate of [{ kind: "gsm8k" }, () => true, undefined, [{ kind: "contains" }, { kind: "regex", pattern: "x" }]]) {
      const p = await problems(sources({ "evals/a.ts": { id: "a", evaluate, cases: "a.csv" } }, { "evals/a.csv": "prompt,expected\np,e\n" }));
      expect(p[0].file).toBe("evals/a.ts");
      expect(p[0].message).toMatch(
        /cases come from the CSV file evals\/a.csv, so the eval's evaluate must be non_empty, exact, contains .*CSV cells are plain text/,
      );
    }
    await ok(
      sources({ "evals/a.ts": { id: "a", evaluate: [{ kind: "exact" }, { kind: "non_empty" }], cases: "a.csv" } }, { "evals/a.csv": "prompt,expected\np,e\n" }),
    );
  });

  it("fails on an eval with no checks, naming the file and row", async () => {
    const p = await problems(sources({ "evals/a.ts": { id: "a", cases: "a.jsonl" } }, { "evals/a.jsonl": '{"prompt":"p"}\n' }));
    expect(p).toEqual([
      { file: "evals/a.jsonl", row: 1, line: 1, message: 'case "a[0]": has no checks: set evaluate, criteria or expectedToolCalls (on the case or its eval)' },
    ]);
    const q = await problems(sources({ "evals/b.ts": { id: "b", prompt: "p", evaluate: contains, expected: "x", cases: [{ evaluate: null }] } }));
    expect(q[0].message).toMatch(/cases\[0\] \("b\[0\]"\): has no checks/);
  });

  it("fails on an invalid evaluator declaration with the validator's message", async () => {
    const p = await problems(sources({ "evals/a.ts": { id: "a", prompt: "p", evaluate: { kind: "contains" } } }));
    expect(p[0].message).toMatch(/the eval: evaluate\.expected: expected is missing/);
    const q = await problems(sources({ "evals/a.ts": { id: "a", prompt: "p", evaluate: { kind: "regex" } } }));
    expect(q[0].message).toMatch(/evaluate\.pattern/);
  });

  it("fails on a JSONL row with an unknown field or a line that is not JSON", async () => {
    const p = await problems(
      sources(
        { "evals/a.ts": { id: "a", evaluate: { kind: "non_empty" }, cases: "a.jsonl" } },
        { "evals/a.jsonl": '{"prompt":"p","input":"x"}\nnot json\n[1]\n' },
      ),
    );
    expect(p.map((x) => [x.row, x.line])).toEqual([
      [2, 2],
      [3, 3],
      [1, 1],
    ]);
    expect(p[2].message).toMatch(/row 1 has an unknown field "input" \(use "prompt"\)/);
    expect(p[0].message).toMatch(/line 2 is not valid JSON/);
    expect(p[1].message).toMatch(/line 3 is a list, not a JSON object/);
  });

  it("fails on a case without a prompt, a bad field type, an unknown eval field, a bad id and expectedToolCalls outside the case's tools", async () => {
    const p = await problems(
      sources({
        "evals/a.ts": {
          id: "a",
          evaluate: { kind: "non_empty" },
          cases: [
            { id: "no-prompt" },
            { id: "t", prompt: "p", timeoutSeconds: -1 },
            { id: " pad", prompt: "p" },
            { id: "etc", prompt: "p", expectedToolCalls: ["get_order"] },
          ],
        },
        "evals/b.ts": { id: "b", prompt: "p", evaluator: { kind: "non_empty" } },
      }),
    );
    const text = p.map(formatProblem).join("\n");
    expect(text).toContain('evals/a.ts: cases[0] ("no-prompt"): has no prompt');
    expect(text).toContain("evals/a.ts: cases[1]: timeoutSeconds must be a positive number of seconds (got -1)");
    expect(text).toContain("invalid case id: Case ID must not start or end with spaces.");
    expect(text).toContain('expectedToolCalls names "get_order", which is not among the case\'s tools (none)');
    expect(text).toContain('evals/b.ts: the eval has an unknown field "evaluator" (use "evaluate")');
  });

  it("holds criteria to the library's limit for a criterion rule (one limit wherever a rule is written)", async () => {
    const long = "Be polite. ".repeat(400).slice(0, LIMITS.criterionRule + 1);
    const p = await problems(
      sources({
        "evals/a.ts": {
          id: "a",
          cases: [
            { id: "ok", prompt: "p", criteria: long.slice(0, LIMITS.criterionRule) },
            { id: "long", prompt: "p", criteria: long },
          ],
        },
      }),
    );
    expect(p.map(formatProblem)).toEqual([
      `evals/a.ts: cases[1]: criteria is too long: the limit is ${LIMITS.criterionRule.toLocaleString("en-US")} characters, as for a criterion's rule in the library (got ${long.length.toLocaleString("en-US")})`,
    ]);
  });

  it("fails on duplicate eval ids, duplicate tool names, a module that did not load and a module without a default export shape", async () => {
    const p = await problems(
      sources(
        {
          "evals/a.ts": { id: "same", prompt: "p", evaluate: { kind: "non_empty" } },
          "evals/b.ts": { id: "same", prompt: "p", evaluate: { kind: "non_empty" } },
          "evals/c.ts": "not an eval",
        },
        {},
        {
          toolModules: [
            { file: "tools/api.ts", value: { tools } },
            { file: "tools/more.ts", value: { tools: { get_order: tools.get_order } } },
            { file: "tools/broken.ts", error: "SyntaxError: Unexpected token (3:4)" },
          ],
        },
      ),
    );
    const text = p.map(formatProblem).join("\n");
    expect(text).toContain('tools/more.ts: tool "get_order" is also defined in tools/api.ts');
    expect(text).toContain("tools/broken.ts: cannot be loaded: SyntaxError: Unexpected token (3:4)");
    expect(text).toContain('evals/b.ts: eval id "same" is also used by evals/a.ts');
    expect(text).toContain("evals/c.ts: an eval module must default-export one eval");
  });

  it("fails on data that is not JSON and on a tool without execute", async () => {
    const p = await problems(
      sources(
        { "evals/a.ts": { id: "a", prompt: "p", evaluate: { kind: "non_empty" }, data: { when: new Date(0) } } },
        {},
        { toolModules: [{ file: "tools/api.ts", value: { tools: { t: { description: "d", inputSchema: z.object({}) } } } }] },
      ),
    );
    const text = p.map(formatProblem).join("\n");
    expect(text).toContain('tools/api.ts: tool "t" has no execute function');
    expect(text).toMatch(/evals\/a.ts: the eval: data: when is an object \(Date\), which is not JSON data/);
  });
});
