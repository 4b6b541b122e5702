import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWorkerBundles } from "../scripts/worker-bundles.mjs";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptFile, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import type { CaseListJson, SuiteResultJson } from "@/lib/suite/result";

// The `benchwork` process itself (cli/bin.mjs), as CI runs it: with its output piped to a reader
// that may go away early (`benchwork run … | head`).
const EXAMPLE = path.resolve("examples/support-tool-use");
const script = JSON.parse(readFileSync("e2e/fixtures/model-scripts/support-tool-use.json", "utf8")) as Exclude<ScriptFile, ScriptRule[]>;
const dir = mkdtempSync(path.join(tmpdir(), "benchwork-bin-"));
let server: ScriptedModelServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startScriptedModelServer({ script: script.rules, models: script.models, defaultReply: script.defaultReply });
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  return server.close();
});

/**
 * Runs `benchwork ARGS` with its stdout piped to a reader that has already gone away (the read end
 * is closed before the command writes anything, like `| head -1` after its first line, only
 * sooner): every write to stdout fails with EPIPE.
 */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["cli/bin.mjs", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("benchwork whose stdout reader went away", () => {
  it("run --list still writes its list and exits 0, without a crash", async () => {
    const out = path.join(dir, "list.json");
    const r = await runWithClosedStdout(["run", EXAMPLE, "--list", "--json-output", out]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
    expect((JSON.parse(readFileSync(out, "utf8")) as CaseListJson).total).toBe(27);
  }, 60_000);

  it("run still runs every case, writes the JSON results and exits with their code (0: all passed)", async () => {
    const out = path.join(dir, "results.json");
    const model = ["--provider", "openai-compatible", "--base-url", server.url, "--model-id", "scripted-1"];
    const r = await runWithClosedStdout(["run", EXAMPLE, ...model, "-v", "--json-output", out]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(out, "utf8")) as SuiteResultJson;
    expect(json.summary).toMatchObject({ status: "PASS", total: 27, passed: 27 });
  }, 60_000);
});

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const forbidEsbuild = fileURLToPath(new URL("../scripts/test-support/forbid-esbuild.mjs", import.meta.url));

/** Runs `node NODE_ARGS` from `cwd`; resolves with its exit code and output once it has closed. */
function node(nodeArgs: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, nodeArgs, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Runs `benchwork ARGS` (cli/bin.mjs) from `cwd` with esbuild made impossible to load (tsx starts it too). */
const runWithoutEsbuild = (args: string[], cwd = REPO_ROOT) => node(["--import", forbidEsbuild, path.join(REPO_ROOT, "cli", "bin.mjs"), ...args], cwd);

describe("benchwork on its bundle built ahead (issue 20: no esbuild at run time)", () => {
  beforeAll(async () => {
    // What `npm run build` (and the install step) does; it builds only when missing or stale.
    await ensureWorkerBundles({ root: REPO_ROOT, names: ["cli"], log: () => {} });
  }, 120_000);

  it("--help prints the usage without loading esbuild", async () => {
    const r = await runWithoutEsbuild(["--help"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: benchwork /);
    expect(r.stdout).toContain("run [options]");
  }, 60_000);

  it("run on a suite without evaluate functions runs every case without loading esbuild, from another folder", async () => {
    // A benchmark repository of its own (a CSV eval with a contains check): jiti loads its modules.
    const repo = path.join(dir, "contains-suite");
    mkdirSync(path.join(repo, "evals"), { recursive: true });
    writeFileSync(
      path.join(repo, "benchmark.config.ts"),
      `export default { protocolVersion: 1, title: "Contains", version: "1.0.0", license: "MIT", evals: ["evals/one.ts"] };\n`,
    );
    writeFileSync(
      path.join(repo, "evals/one.ts"),
      `export default { id: "one", systemPrompt: "Answer briefly.", evaluate: { kind: "contains" }, cases: "./one.csv" };\n`,
    );
    // The scripted server answers "Scripted answer." to anything: case a passes, b does not.
    writeFileSync(path.join(repo, "evals/one.csv"), `id,prompt,expected\na,Say anything,Scripted answer\nb,Say more,nothing like it\n`);
    const plain = await startScriptedModelServer();
    const out = path.join(dir, "contains.json");
    const model = ["--provider", "openai-compatible", "--base-url", plain.url, "--model-id", "scripted-1"];
    const r = await runWithoutEsbuild(["run", ".", ...model, "--json-output", out], repo).finally(() => plain.close());
    expect(r.stderr).not.toMatch(/esbuild|Error/);
    expect(r.code).toBe(1);
    const json = JSON.parse(readFileSync(out, "utf8")) as SuiteResultJson;
    expect(json.summary).toMatchObject({ status: "FAIL", total: 2, passed: 1 });
    expect(json.results.map((c) => [c.name, c.passed])).toEqual([
      ["a", true],
      ["b", false],
    ]);
  }, 60_000);

  it("a missing bundle is built once, saying so on standard error (its commands' bundles too): standard output stays the command's", async () => {
    // A project of its own (the launcher and the bundle scripts, a tiny cli/main.ts that needs the
    // seed bundle and prints JSON), so that the repository's bundles are never touched.
    const project = mkdtempSync(path.join(dir, "project-"));
    for (const file of ["cli/bin.mjs", "scripts/worker-bundles.mjs", "scripts/bundle.mjs", "scripts/build-state.mjs"]) {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      copyFileSync(path.join(REPO_ROOT, file), path.join(project, file));
    }
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(project, "node_modules"), "dir");
    writeFileSync(path.join(project, "tsconfig.json"), "{}\n");
    mkdirSync(path.join(project, "db", "seed"), { recursive: true });
    writeFileSync(path.join(project, "db", "seed", "cli.ts"), `console.log("seeded");\n`);
    writeFileSync(
      path.join(project, "cli", "main.ts"),
      [
        `import { workerBundle } from "../scripts/worker-bundles.mjs";`,
        `export async function main(args: string[]): Promise<number> {`,
        `  await workerBundle(process.env.BENCHWORK_ROOT!, "seed");`,
        `  process.stdout.write(JSON.stringify({ args }) + "\\n");`,
        `  return 3;`,
        `}`,
      ].join("\n"),
    );
    const command = () => node([path.join(project, "cli", "bin.mjs"), "inspect", "--json"], dir);

    const first = await command();
    expect(first.code).toBe(3);
    expect(JSON.parse(first.stdout)).toEqual({ args: ["inspect", "--json"] });
    expect(first.stderr.trim().split("\n")).toEqual([
      "benchwork: worker bundles in dist/worker: cli missing; building them now, once (`npm run build` builds them ahead)",
      "benchwork: worker bundles in dist/worker: seed missing; building them now, once (`npm run build` builds them ahead)",
    ]);
    // Built and stamped: the next command says nothing and builds nothing.
    const again = await command();
    expect(again).toEqual({ code: 3, stdout: first.stdout, stderr: "" });
  }, 120_000);
});
