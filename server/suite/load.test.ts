import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigNotFoundError, loadBenchmark, normalizeRelative, resolveConfigPath } from "./load";

/** A benchmark repository in a temp folder; node_modules links to the project's, so `ai` and `zod` resolve. */
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-repo-"));
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const config = (evals: string[], tools: string[] = ["tools/api.ts"]) =>
  `export default { protocolVersion: 1, title: "T", version: "0.1.0", license: "MIT", tools: ${JSON.stringify(tools)}, evals: ${JSON.stringify(evals)} };\n`;
const toolsModule = `import { tool } from "ai";
import { z } from "zod";
export const calls: string[] = [];
export const tools = {
  ping: tool({ description: "Ping.", inputSchema: z.object({ who: z.string() }), execute: async ({ who }: { who: string }) => { calls.push(who); return { pong: who }; } }),
};
`;

describe("resolveConfigPath", () => {
  it("accepts a config file or a folder holding benchmark.config.ts", () => {
    const dir = repo({ "benchmark.config.ts": config([]) });
    expect(resolveConfigPath(dir)).toBe(path.join(dir, "benchmark.config.ts"));
    expect(resolveConfigPath("benchmark.config.ts", dir)).toBe(path.join(dir, "benchmark.config.ts"));
    expect(() => resolveConfigPath(path.join(dir, "nope"))).toThrow(ConfigNotFoundError);
    expect(() => resolveConfigPath(path.join(dir, "node_modules", ".."), path.join(dir, "node_modules"))).not.toThrow();
    const empty = mkdtempSync(path.join(tmpdir(), "benchwork-empty-"));
    expect(() => resolveConfigPath(empty)).toThrow(/no benchmark.config.ts/);
  });

  it("normalises module paths", () => {
    expect(normalizeRelative("./evals\\a.ts")).toBe("evals/a.ts");
    expect(normalizeRelative("../shared/x.ts")).toBe("../shared/x.ts");
  });
});

describe("loadBenchmark", () => {
  it("imports TypeScript modules with jiti and compiles; one module instance is shared within a load", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/ping.ts"]),
      "tools/api.ts": toolsModule,
      "evals/ping.ts": `import { calls } from "../tools/api";
export default { id: "ping", prompt: "Ping Ada", tools: ["ping"], evaluate: { kind: "non_empty" }, setup: () => calls.length };
`,
    });
    const r = await loadBenchmark(resolveConfigPath(dir));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const { compiled, root } = r.benchmark;
    expect(root).toBe(dir);
    expect(compiled.release.cases.map((c) => c.id)).toEqual(["ping"]);
    await compiled.tools.ping.execute!({ who: "ada" }, { toolCallId: "1", messages: [] });
    expect(await compiled.cases[0].setup!()).toBe(1);
  }, 30_000);

  it("gives the same hash for the same files and sees edits made between loads", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/a.ts"], []),
      "evals/a.ts": `export default { id: "a", prompt: "one", evaluate: { kind: "non_empty" } };\n`,
    });
    const first = await loadBenchmark(resolveConfigPath(dir));
    const again = await loadBenchmark(resolveConfigPath(dir));
    expect(first.ok && again.ok && again.benchmark.compiled.release.contentHash === first.benchmark.compiled.release.contentHash).toBe(true);
    writeFileSync(path.join(dir, "evals/a.ts"), `export default { id: "a", prompt: "two", evaluate: { kind: "non_empty" } };\n`);
    const edited = await loadBenchmark(resolveConfigPath(dir));
    if (!edited.ok || !first.ok) throw new Error("load failed");
    expect(edited.benchmark.compiled.release.cases[0].prompt).toBe("two");
    expect(edited.benchmark.compiled.release.contentHash).not.toBe(first.benchmark.compiled.release.contentHash);
  }, 30_000);

  it("hashes what evaluate runs: a helper or constant it uses changes the function's hash and the release's; code only setup uses does not", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/e.ts"], ["tools/api.ts"]),
      "tools/api.ts": toolsModule,
      "evals/rules.ts": `export const MIN_LENGTH = 3;\nexport const long = (s: string) => s.length >= MIN_LENGTH;\n`,
      "evals/seed.ts": `import { calls } from "../tools/api";\nexport const seed = () => calls.push("seeded");\n`,
      "evals/e.ts": `import { long } from "./rules";
import { seed } from "./seed";
export default { id: "e", prompt: "p", tools: ["ping"], setup: seed, evaluate: ({ output }: { output: string }) => long(output) };
`,
    });
    const load = async () => {
      const r = await loadBenchmark(resolveConfigPath(dir));
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return r.benchmark.compiled;
    };
    const first = await load();
    const fn = first.release.cases[0].evaluatorFunction!;
    // The tools module (ai, zod) and the setup helper are not part of what evaluate runs.
    expect(fn.files).toEqual(["evals/e.ts", "evals/rules.ts"]);
    expect(first.evaluateCode.get(fn.sha256)).toContain("MIN_LENGTH = 3");
    writeFileSync(path.join(dir, "evals/seed.ts"), `import { calls } from "../tools/api";\nexport const seed = () => calls.push("seeded again");\n`);
    const setupEdited = await load();
    expect(setupEdited.release.contentHash).toBe(first.release.contentHash);
    writeFileSync(path.join(dir, "evals/rules.ts"), `export const MIN_LENGTH = 4;\nexport const long = (s: string) => s.length >= MIN_LENGTH;\n`);
    const ruleEdited = await load();
    expect(ruleEdited.release.cases[0].evaluatorFunction!.sha256).not.toBe(fn.sha256);
    expect(ruleEdited.release.contentHash).not.toBe(first.release.contentHash);
  }, 60_000);

  it("bundles pure JavaScript packages evaluate imports, and refuses code that fails as it loads in the sandbox", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/z.ts", "evals/env.ts"], []),
      "evals/z.ts": `import { z } from "zod";\nconst Answer = z.object({ eligible: z.boolean() });\nexport default { id: "z", prompt: "p", evaluate: ({ output }: { output: string }) => Answer.safeParse(JSON.parse(output)).success };\n`,
      "evals/config.ts": `export const threshold = Number(process.env.THRESHOLD ?? 1);\n`,
      "evals/env.ts": `import { threshold } from "./config";\nexport default { id: "env", prompt: "p", evaluate: ({ output }: { output: string }) => output.length > threshold };\n`,
    });
    const r = await loadBenchmark(resolveConfigPath(dir));
    expect(r.ok ? [] : r.problems).toEqual([
      {
        file: "evals/env.ts",
        message: expect.stringMatching(
          /^the eval's evaluate: it cannot be loaded in the evaluator sandbox \(QuickJS: no Node built-ins, `process`, `fetch` or environment\): the code threw while loading: ReferenceError: 'process' is not defined/,
        ),
      },
    ]);
  }, 60_000);

  it("reports config problems, missing and broken modules and a module without a default export, naming each file", async () => {
    const bad = repo({ "benchmark.config.ts": `export default { protocolVersion: 1, title: "T" };\n` });
    const r1 = await loadBenchmark(resolveConfigPath(bad));
    expect(r1.ok ? [] : r1.problems).toEqual([
      { file: "benchmark.config.ts", message: "version is required (non-empty text)" },
      { file: "benchmark.config.ts", message: "license is required (non-empty text)" },
      { file: "benchmark.config.ts", message: "evals must be a list of file paths relative to the config (at least one)" },
    ]);
    const dir = repo({
      "benchmark.config.ts": config(["evals/missing.ts", "evals/broken.ts", "evals/named.ts"], ["tools/none.ts"]),
      "evals/broken.ts": "export default { id: 'x', prompt: \n",
      "evals/named.ts": "export const evalDef = { id: 'n' };\n",
    });
    const r2 = await loadBenchmark(resolveConfigPath(dir));
    const problems = r2.ok ? [] : r2.problems;
    expect(problems.map((p) => p.file)).toEqual(["tools/none.ts", "evals/missing.ts", "evals/broken.ts", "evals/named.ts"]);
    expect(problems[0].message).toBe("cannot be loaded: file not found");
    expect(problems[2].message).toMatch(/^cannot be loaded: /);
    expect(problems[3].message).toMatch(/has no default export/);
  }, 30_000);
});
