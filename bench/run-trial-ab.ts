/**
 * The trial engine's own cost, before and after a change, side by side in one process (issue #20:
 * `runModelTrial` now also serves code suites — events, executable tools, unfinished calls — and
 * must not cost bench trials more). Loads `lib/runtime/run-trial.ts` of a base revision (`git show`)
 * beside the working tree's, and runs both alternately (A B B A …) on an in-process model with no
 * latency: text answers, and trials with one tool round (fixture tools). Prints, per round, the
 * process's CPU time per trial (user + system, µs: less sensitive than wall time to the other
 * processes of a loaded machine) and trials per second of wall time, then the medians and the load.
 *
 * Run: `npx tsx bench/run-trial-ab.ts [--base main] [--trials 4000] [--rounds 6] [--concurrency 64]`
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { ToolDefinition } from "@/lib/library/case-content";
import * as current from "@/lib/runtime/run-trial";
import { mockUsage, textResult } from "@/lib/runtime/test-support/mock-model";

const args = process.argv.slice(2);
const arg = (name: string, def: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const BASE = arg("base", "main");
const TRIALS = Number(arg("trials", "4000"));
const ROUNDS = Number(arg("rounds", "6"));
const CONCURRENCY = Number(arg("concurrency", "64"));

// The base revision's engine, its relative imports pointed at today's modules (only run-trial.ts is compared).
const out = path.resolve("bench/.out");
mkdirSync(out, { recursive: true });
const baseFile = path.join(out, "run-trial-base.ts");
const source = execFileSync("git", ["show", `${BASE}:lib/runtime/run-trial.ts`], { encoding: "utf8" });
writeFileSync(baseFile, source.replace(/from "\.\//g, 'from "@/lib/runtime/'));
const base = (await import(pathToFileURL(baseFile).href)) as typeof current;

const getOrder: ToolDefinition = {
  name: "get_order",
  description: "Look up an order",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } } },
  fixtures: { default: { status: "delivered" } },
};

/** An in-process V3 model: a tool call first when `tool`, then (or only) a text answer. */
function model(tool: boolean): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "ab",
    modelId: "ab",
    supportedUrls: {},
    doGenerate: async (o: LanguageModelV3CallOptions) => {
      if (tool && !o.prompt.some((m) => m.role === "tool")) {
        return {
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "get_order", input: '{"orderId":"o1"}' }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: mockUsage(20, 8),
          warnings: [],
        };
      }
      return textResult("Your order was delivered.");
    },
    doStream: () => Promise.reject(new Error("not streamed")),
  };
}

/** One batch: CPU µs per trial and trials per wall second. */
async function batch(engine: typeof current, tool: boolean): Promise<{ cpuUs: number; perSecond: number }> {
  const m = model(tool);
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < TRIALS) {
      next++;
      const r = await engine.runModelTrial({
        model: m,
        system: "Be brief.",
        messages: [{ role: "user", content: "Where is o1?" }],
        tools: tool ? [getOrder] : [],
        timeoutMs: 30_000,
      });
      if (r.error) throw new Error(r.error.message);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / TRIALS, perSecond: TRIALS / ((performance.now() - started) / 1000) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`base ${BASE} vs working tree · ${TRIALS} trials × ${ROUNDS} rounds · concurrency ${CONCURRENCY} · load ${loadavg()[0].toFixed(1)}`);
for (const tool of [false, true]) {
  const runs: Record<"base" | "now", { cpuUs: number; perSecond: number }[]> = { base: [], now: [] };
  await batch(current, tool); // warm-up (JIT, module caches)
  await batch(base, tool);
  for (let round = 0; round < ROUNDS; round++) {
    const order: ("base" | "now")[] = round % 2 === 0 ? ["base", "now"] : ["now", "base"];
    for (const which of order) runs[which].push(await batch(which === "base" ? base : current, tool));
  }
  const kind = tool ? "one tool round" : "text answer";
  for (const which of ["base", "now"] as const) {
    console.log(
      `${kind} ${which}: CPU µs/trial ${runs[which].map((r) => r.cpuUs.toFixed(0)).join(" ")}; trials/s ${runs[which].map((r) => r.perSecond.toFixed(0)).join(" ")}`,
    );
  }
  const cpu = (w: "base" | "now") => median(runs[w].map((r) => r.cpuUs));
  const rate = (w: "base" | "now") => median(runs[w].map((r) => r.perSecond));
  console.log(
    `${kind}: median CPU µs/trial base ${cpu("base").toFixed(1)}, now ${cpu("now").toFixed(1)} (now/base ${(cpu("now") / cpu("base")).toFixed(3)}); trials/s base ${rate("base").toFixed(0)}, now ${rate("now").toFixed(0)}`,
  );
}
console.log(`load at the end ${loadavg()[0].toFixed(1)}`);
