// Attacks on `evaluate` functions (security review): code in an eval module tries to read the
// process's secrets and to reach the network. The real CLI runs in a child process whose
// environment holds a fake secret, so /proc/self/environ holds it too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";
import type { SuiteResultJson } from "@/lib/suite/result";
import { main } from "../main";
import { captureIo } from "../testing";
import { runCommand } from "./run";

const SECRET = "sk-benchwork-fake-secret-6f1c";

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-attack-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const config = (evals: string[]) =>
  `export default { protocolVersion: 1, title: "Attacks", version: "1.0.0", license: "MIT", evals: ${JSON.stringify(evals)} };\n`;

/** Every way a Node module could reach a built-in module at run time, without a static import. */
const builtinHelper = `
const g: any = globalThis;
function builtin(name: string): any {
  if (typeof g.process?.getBuiltinModule === "function") return g.process.getBuiltinModule(name);
  if (typeof g.require === "function") return g.require(name);
  return new Function("return require")()(name);
}
`;

let model: ScriptedModelServer;
let target: http.Server;
let targetUrl = "";
let targetHits = 0;

beforeAll(async () => {
  model = await startScriptedModelServer({ defaultReply: { text: "hello" } });
  target = http.createServer((_req, res) => {
    targetHits++;
    res.end("reached");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await model.close();
  await new Promise((resolve) => target.close(resolve));
});

describe("evaluate functions cannot reach secrets or the network", () => {
  it("every attack ends as an evaluator error (never a pass), sees no secret, and sends no request", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/attacks.ts"]),
      "evals/attacks.ts": `${builtinHelper}
export default {
  id: "attacks",
  prompt: "Say hello.",
  cases: [
    { id: "control", evaluate: ({ output }: { output: string }) => ({ passed: output === "hello", details: { length: output.length } }) },
    { id: "proc-environ", evaluate: () => ({ passed: true, message: String(builtin("fs").readFileSync("/proc/self/environ", "utf8")) }) },
    { id: "process-env", evaluate: () => ({ passed: true, message: JSON.stringify(process.env) }) },
    { id: "fetch-local", evaluate: async () => { const r = await fetch(${JSON.stringify("TARGET")}); return { passed: true, message: await r.text() }; } },
    { id: "child-process", evaluate: () => ({ passed: true, message: String(builtin("child_process").execSync("env")) }) },
  ],
};
`.replace('"TARGET"', () => JSON.stringify(targetUrl)),
    });
    const out = path.join(dir, "results.json");
    const child = spawn(
      process.execPath,
      ["cli/bin.mjs", "run", dir, "--provider", "openai-compatible", "--base-url", model.url, "--model-id", "scripted-1", "--json-output", out],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, BENCHWORK_FAKE_SECRET: SECRET },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const text = readFileSync(out, "utf8");
    const json = JSON.parse(text) as SuiteResultJson;
    expect(code, stderr).toBe(1);
    const byName = new Map(json.results.map((r) => [r.name, r]));
    expect(byName.get("control")).toMatchObject({ passed: true, evaluatorPassed: true, error: null });
    for (const name of ["proc-environ", "process-env", "fetch-local", "child-process"]) {
      const r = byName.get(name)!;
      expect(r, name).toMatchObject({ passed: false, evaluatorPassed: null, timedOut: false });
      expect(r.error, name).toMatch(
        /^evaluator: function: evaluator infrastructure failure: evals\/attacks\.ts cases\[\d\]\.evaluate: evaluate threw ReferenceError: /,
      );
    }
    expect(byName.get("process-env")!.error).toMatch(/process/);
    expect(byName.get("fetch-local")!.error).toMatch(/fetch/);
    expect(targetHits).toBe(0);
    expect(text + stdout + stderr).not.toContain(SECRET);
  }, 60_000);

  it("a slow evaluate is an evaluator error under its own deadline, never a case timeout", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/slow.ts"]),
      "evals/slow.ts": `export default { id: "slow", prompt: "Say hello.", timeoutSeconds: 1, evaluate: () => { for (;;) {} } };\n`,
    });
    const out = path.join(dir, "results.json");
    const io = captureIo();
    // The evaluator's deadline (1.5 s here, 5 s by default) outlasts the case's 1 s timeout.
    const code = await runCommand(
      [dir],
      { provider: "openai-compatible", baseUrl: model.url, modelId: "scripted-1", jsonOutput: out, evaluatorTimeoutMs: 1_500 },
      io,
    );
    expect(code).toBe(1);
    const [r] = (JSON.parse(readFileSync(out, "utf8")) as SuiteResultJson).results;
    expect(r).toMatchObject({ name: "slow", timedOut: false, evaluatorPassed: null, passed: false, output: "hello" });
    expect(r.error).toBe("evaluator: function: evaluator infrastructure failure: evals/slow.ts evaluate: timed out after 1500 ms");
  }, 60_000);

  it("refuses at compile time an evaluate that imports a Node built-in, naming the module and the import", async () => {
    const dir = repo({
      "benchmark.config.ts": config(["evals/fs.ts", "evals/cp.ts"]),
      "evals/read-env.ts": `import { readFileSync } from "node:fs";\nexport const environ = () => readFileSync("/proc/self/environ", "utf8");\n`,
      "evals/fs.ts": `import { environ } from "./read-env";\nexport default { id: "fs", prompt: "p", evaluate: () => ({ passed: environ().length > 0 }) };\n`,
      "evals/cp.ts": `export default { id: "cp", prompt: "p", evaluate: () => ({ passed: String(require("child_process").execSync("env")).length > 0 }) };\n`,
    });
    const io = captureIo();
    const code = await main(["run", dir, "--provider", "openai-compatible", "--base-url", model.url, "--model-id", "scripted-1"], io);
    const err = io.stderr.join("\n");
    expect(code).toBe(1);
    expect(err).toContain("the benchmark does not compile (2 problems)");
    expect(err).toMatch(/evals\/fs\.ts: the eval's evaluate: .*"node:fs" \(imported by evals\/read-env\.ts\)/);
    expect(err).toMatch(/evals\/cp\.ts: the eval's evaluate: .*"child_process" \(imported by evals\/cp\.ts\)/);
  }, 60_000);
});
