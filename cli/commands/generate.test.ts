import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startScriptedModelServer, type ScriptedModelServer, type ScriptFile, type ScriptRule } from "@/e2e/fixtures/scripted-model-server";
import { migrateDatabase, openDatabase } from "@/db/client";
import { listGenerationRuns, listProposals } from "@/db/queries/proposals";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { main } from "../main";
import { captureIo } from "../testing";
import { generateCommand } from "./generate";

// The generator's rules of the e2e script (the same answers the browser tests get).
const script = JSON.parse(readFileSync("e2e/fixtures/model-scripts/e2e.json", "utf8")) as Exclude<ScriptFile, ScriptRule[]>;
const rules = script.rules.filter((r) => r.name?.startsWith("generator-"));
const dir = mkdtempSync(path.join(tmpdir(), "benchwork-generate-cli-"));
const file = path.join(dir, "generate.db");
let server: ScriptedModelServer;
let model: string[];
let saved: string | undefined;
let supportId: number;
let brokenId: number;

beforeAll(async () => {
  server = await startScriptedModelServer({ script: rules, models: script.models });
  model = ["--provider", "openai-compatible", "--base-url", server.url, "--model-id", "scripted-1"];
  saved = process.env.BENCHWORK_DB;
  process.env.BENCHWORK_DB = file;
  const db = openDatabase(file);
  migrateDatabase(db);
  await createSystem(db, { id: "shop", name: "Shop" });
  supportId = await createPrompt(db, { systemId: "shop", name: "support", systemPrompt: "You answer customers of a kettle shop about refunds and orders." });
  brokenId = await createPrompt(db, { systemId: "shop", name: "broken", systemPrompt: "BROKEN-GENERATOR test prompt." });
  await createPrompt(db, { systemId: "shop", name: "returns", systemPrompt: "You answer customers of a kettle shop about returns." });
  db.$client.close();
});
afterAll(async () => {
  if (saved === undefined) delete process.env.BENCHWORK_DB;
  else process.env.BENCHWORK_DB = saved;
  await server.close();
});

async function generate(args: string[]) {
  const io = captureIo();
  const code = await main(["generate", ...args], io);
  return { code, out: io.stdout.join("\n"), err: io.stderr };
}

async function stored(promptId: number) {
  const db = openDatabase(file);
  try {
    return { runs: await listGenerationRuns(db, promptId), proposals: await listProposals(db, promptId) };
  } finally {
    db.$client.close();
  }
}

describe("benchwork generate", () => {
  it("stores the proposals for review and prints them as JSON with what was dropped", async () => {
    const r = await generate(["--system", "shop", "--prompt", "support", "--criteria", "3", "--scenarios", "3", "--json", ...model]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.model).toBe("openai-compatible:scripted-1");
    expect(json.criteria.map((c: { rule: string; priority: string; check: { kind: string } }) => [c.rule, c.priority, c.check.kind])).toEqual([
      ["Ask for the order number before promising anything", "primary", "judge"],
      ["Mention the order number in the reply", "secondary", "static"],
      ["Keep the customer's tone calm", "secondary", "unobservable"],
    ]);
    expect(json.criteria[0]).toMatchObject({ passes: "Asks for the order number first", fails: "Promises a refund without an order number" });
    expect(json.scenarios.map((s: { input: string; persona: string; concept: string }) => [s.input, s.persona, s.concept])).toEqual([
      ["kettle broke on day 2, refund pls", "Busy parent", "refunds"],
      ["WHERE IS MY PARCEL, THIRD TIME ASKING", "Angry customer", "order status"],
    ]);
    expect(json.scenarios[0].expected).toBe("Asks for the order number, then explains the refund steps");
    expect(json.dropped.map((d: { reason: string }) => d.reason)).toEqual(["invalid", "duplicate", "duplicate"]);
    expect(json.dropped[0]).toMatchObject({ step: "criteria", item: 5, problem: expect.stringContaining("priority") });
    // Scripted usage: criteria 400+300, concepts 350+120, two persona calls 500+200 and 500+150.
    expect(json.usage).toEqual({ inputTokens: 1750, outputTokens: 770, calls: 4 });
    const { runs, proposals } = await stored(supportId);
    expect(runs.map((x) => x.id)).toEqual([json.runId]);
    expect(proposals.map((p) => [p.id, p.status])).toEqual([...json.criteria, ...json.scenarios].map((x: { id: number }) => [x.id, "proposed"]));
  });

  it("prints a readable summary without --json", async () => {
    const r = await generate(["--system", "shop", "--prompt", "returns", "--criteria", "2", ...model]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("criterion #");
    expect(r.out).toMatch(/2 criteria, 0 scenarios; dropped 2 \(1 near-duplicate, 1 invalid\)/);
    expect(r.out).toMatch(/diversity: criteria \d\.\d\d, scenarios n\/a; 1 call, 400 input \+ 300 output tokens/);
  });

  it("without a model exits 2 with one line and stores nothing", async () => {
    const other = path.join(dir, "untouched.db");
    process.env.BENCHWORK_DB = other;
    try {
      const r = await generate(["--system", "shop", "--prompt", "support", "--criteria", "2"]);
      expect(r.code).toBe(2);
      expect(r.err).toEqual(["benchwork: no model: give --model NAME (a saved configuration) or --provider openai-compatible --base-url URL --model-id ID"]);
      expect(existsSync(other)).toBe(false);
    } finally {
      process.env.BENCHWORK_DB = file;
    }
  });

  it("a missing API key is a usage error naming the variable, before anything is stored", async () => {
    const io = captureIo();
    const e = await generateCommand({ system: "shop", prompt: "support", criteria: "1", provider: "openai", modelId: "gpt-x" }, io, {}).catch(
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ exitCode: 2, message: expect.stringContaining("OPENAI_API_KEY") });
  });

  it("exits 1 and stores nothing when the model's answer is not JSON", async () => {
    const r = await generate(["--system", "shop", "--prompt", "broken", "--criteria", "2", ...model]);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      expect.stringMatching(/^benchwork: criteria: the model's answer is not JSON: "Sorry, I cannot produce JSON today\." Nothing was stored\.$/),
    ]);
    expect(await stored(brokenId)).toEqual({ runs: [], proposals: [] });
  });

  it("names an unknown prompt or a bad count (exit 2)", async () => {
    const r = await generate(["--system", "shop", "--prompt", "nope", "--criteria", "1", ...model]);
    expect(r.code).toBe(2);
    expect(r.err[0]).toBe('benchwork: --prompt: system "shop" has no prompt "nope" (prompts: broken, returns, support)');
    const c = await generate(["--system", "shop", "--prompt", "support", "--criteria", "two", ...model]);
    expect(c.err[0]).toBe('benchwork: --criteria must be a whole number from 0 to 50 (got "two")');
    const z = await generate(["--system", "shop", "--prompt", "support", ...model]);
    expect(z.err[0]).toMatch(/nothing to generate/);
  });
});
