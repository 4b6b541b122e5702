/**
 * The JSON of `benchwork run` on the real path (issue #20 "One trial engine"): a small benchmark
 * repository with a tool-call case, a case whose tool outlives its timeout, a judged criterion and
 * a case whose model call fails with HTTP 500, run by the real CLI (`node cli/bin.mjs run`, its own
 * process) against the scripted OpenAI-compatible server (in this process, a free loopback port).
 * Prints the exit code and the JSON with the fields that change from run to run (timings, session
 * ids, the release hash of the temp folder) replaced by `"<varies>"`, so two runs — before and after
 * a change of the trial engine — can be compared with `diff`.
 *
 * Run: `npx tsx bench/suite-json.ts > before.txt`, change the code, run again, `diff before.txt after.txt`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer } from "@/e2e/fixtures/scripted-model-server";

const root = mkdtempSync(path.join(tmpdir(), "benchwork-suite-json-"));
const files: Record<string, string> = {
  "benchmark.config.ts": `export default { protocolVersion: 1, title: "One engine", version: "1.0.0", license: "MIT", tools: ["tools/support.ts"], evals: ["evals/cases.ts"] };\n`,
  "tools/support.ts": `import { tool } from "ai";
import { z } from "zod";
export const tools = {
  get_order: tool({ description: "Look up an order.", inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ orderId, status: "delivered" }) }),
  // Never settles and ignores its abort signal: the case must still end at its timeout.
  wait_forever: tool({ description: "Waits.", inputSchema: z.object({ ticket: z.string() }), execute: () => new Promise(() => { setInterval(() => {}, 1_000); }) }),
};
`,
  "evals/cases.ts": `export default {
  id: "engine",
  systemPrompt: "You are a support agent.",
  cases: [
    { id: "tool-call", prompt: "Where is order o1?", tools: ["get_order"], expectedToolCalls: ["get_order"], evaluate: { kind: "contains", expected: "delivered" } },
    { id: "slow-tool", prompt: "Wait for the slow tool.", tools: ["wait_forever"], timeoutSeconds: 1, evaluate: { kind: "non_empty" } },
    { id: "judged", prompt: "Say hello.", criteria: "Answers politely" },
    { id: "server-error", prompt: "Break please.", evaluate: { kind: "non_empty" } },
  ],
};
`,
};
for (const [name, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), text);
}
symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"), "dir");

const server = await startScriptedModelServer({
  script: [
    { name: "judge", when: { systemIncludes: "impartial evaluator" }, reply: { text: '{"reason":"Polite greeting.","verdict":"pass"}' } },
    {
      name: "order-call",
      when: { userText: "Where is order o1?", hasToolResult: false },
      reply: { toolCalls: [{ name: "get_order", arguments: { orderId: "o1" } }] },
    },
    { name: "order-answer", when: { userText: "Where is order o1?", hasToolResult: true }, reply: { text: "Order o1 was delivered." } },
    {
      name: "wait",
      when: { userText: "Wait for the slow tool.", hasToolResult: false },
      reply: { toolCalls: [{ name: "wait_forever", arguments: { ticket: "T-1" } }] },
    },
    { name: "hello", when: { userText: "Say hello." }, reply: { text: "Hello! How can I help you today?" } },
    { name: "broken", when: { userText: "Break please." }, fault: { status: 500, message: "Scripted error 500." } },
  ],
});

const out = path.join(root, "result.json");
const child = spawn(
  process.execPath,
  ["cli/bin.mjs", "run", root, "--provider", "openai-compatible", "--base-url", server.url, "--model-id", "scripted-1", "--json-output", out],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
child.stdout.resume();
const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
await server.close();

const VARIES = new Set(["durationSeconds", "sessionId", "contentHash"]);
const json: unknown = JSON.parse(readFileSync(out, "utf8"), (key, value: unknown) => (VARIES.has(key) ? "<varies>" : value));
console.log(`exit code ${code}`);
console.log(JSON.stringify(json, null, 2));
console.log(`model requests: ${server.requests.count}`);
rmSync(root, { recursive: true, force: true });
