import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
