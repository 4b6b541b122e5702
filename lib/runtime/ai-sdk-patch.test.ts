/**
 * patches/ai+6.0.326.patch (applied by `patch-package` on install): generateText builds its
 * telemetry span attributes only when telemetry is on, and validates prompts with one array
 * schema instead of a new one per call. On Node 20's V8 those per-call objects cost ~15 KB of
 * old-generation garbage per trial (bench/runner.ts, issue #5). These tests check that the patch is
 * installed and that telemetry still records the same attributes when a caller turns it on.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generateText } from "ai";
import { textModel } from "./test-support/mock-model";

const require = createRequire(import.meta.url);

/** The OpenTelemetry tracer type generateText accepts (not a dependency of ours). */
type Tracer = NonNullable<NonNullable<Parameters<typeof generateText>[0]["experimental_telemetry"]>["tracer"]>;
type Span = ReturnType<Tracer["startSpan"]>;

/** The body of `generateText` in one of the installed ai builds. */
function generateTextSource(file: "index.mjs" | "index.js"): string {
  const src = readFileSync(path.join(path.dirname(require.resolve("ai/package.json")), "dist", file), "utf8");
  const start = src.indexOf("async function generateText(");
  return src.slice(start, src.indexOf("\n}\n", start));
}

/** A tracer that keeps the name and attributes of every span started. */
function recordingTracer() {
  const spans: { name: string; attributes: Record<string, unknown> }[] = [];
  const span = (attributes: Record<string, unknown>) =>
    ({
      setAttributes: (a: Record<string, unknown>) => Object.assign(attributes, a),
      setAttribute: () => {},
      addEvent: () => {},
      setStatus: () => {},
      recordException: () => {},
      end: () => {},
      isRecording: () => true,
      spanContext: () => ({ traceId: "t", spanId: "s", traceFlags: 1 }),
      updateName: () => {},
      addLink: () => {},
      addLinks: () => {},
    }) as unknown as Span;
  const tracer = {
    startSpan: () => span({}),
    startActiveSpan: (name: string, options: { attributes?: Record<string, unknown> }, fn: (s: Span) => unknown) => {
      const attributes = { ...(options.attributes ?? {}) };
      spans.push({ name, attributes });
      return fn(span(attributes));
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

const model = () => textModel("4", { modelId: "mock-1", input: 7, output: 1 });

describe("the installed ai SDK carries patches/ai+6.0.326.patch", () => {
  it.each(["index.mjs", "index.js"] as const)("%s: generateText skips span attributes when telemetry is off", (file) => {
    const body = generateTextSource(file);
    const guarded = body.match(/\(telemetry == null \? void 0 : telemetry\.isEnabled\) !== true \? \{\} : (await )?selectTelemetryAttributes\(/g) ?? [];
    const all = body.match(/selectTelemetryAttributes\(/g) ?? [];
    expect(all.length).toBe(5);
    expect(guarded.length).toBe(all.length);
  });

  it("package.json pins ai exactly to the version the patch was made for (and the one installed)", () => {
    const project = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
    const pkg = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const patches = readdirSync(path.join(project, "patches")).filter((f) => f.startsWith("ai+"));
    expect(patches).toEqual([`ai+${pkg.dependencies.ai}.patch`]);
    expect((require("ai/package.json") as { version: string }).version).toBe(pkg.dependencies.ai);
  });

  it("still records the spans' attributes when a caller turns telemetry on", async () => {
    const { tracer, spans } = recordingTracer();
    const r = await generateText({ model: model(), prompt: "2+2?", maxRetries: 0, experimental_telemetry: { isEnabled: true, tracer } });
    expect(r.text).toBe("4");
    expect(spans.map((s) => s.name)).toEqual(["ai.generateText", "ai.generateText.doGenerate"]);
    const outer = spans[0].attributes;
    expect(outer["ai.model.id"]).toBe("mock-1");
    expect(outer["ai.prompt"]).toBe(JSON.stringify({ prompt: "2+2?" }));
    expect(outer["ai.response.text"]).toBe("4");
    const call = spans[1].attributes;
    expect(call["gen_ai.request.model"]).toBe("mock-1");
    expect(call["ai.usage.inputTokens"]).toBe(7);
    expect(call["ai.response.finishReason"]).toBe("stop");
  });

  it("validates prompts the same way (a bad message is still refused)", async () => {
    await expect(generateText({ model: model(), messages: [{ role: "user", content: 42 as unknown as string }], maxRetries: 0 })).rejects.toThrow(
      /Invalid prompt/,
    );
    const r = await generateText({ model: model(), messages: [{ role: "user", content: "2+2?" }], maxRetries: 0 });
    expect(r.text).toBe("4");
  });
});
