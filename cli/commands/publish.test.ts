import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "@/db/client";
import { findCaseByKey, getCase, listPromptCases } from "@/db/queries/cases";
import { createSystem, listPrompts } from "@/db/queries/systems";
import { main } from "../main";
import { captureIo } from "../testing";

const EXAMPLE = path.resolve("examples/support-tool-use");
const dir = mkdtempSync(path.join(tmpdir(), "benchwork-publish-cli-"));
const file = path.join(dir, "publish.db");
let saved: string | undefined;

beforeAll(async () => {
  saved = process.env.BENCHWORK_DB;
  process.env.BENCHWORK_DB = file;
  const db = openDatabase(file);
  migrateDatabase(db);
  await createSystem(db, { id: "support", name: "Customer support" });
  db.$client.close();
});
afterAll(() => {
  if (saved === undefined) delete process.env.BENCHWORK_DB;
  else process.env.BENCHWORK_DB = saved;
});

async function publish(args: string[]) {
  const io = captureIo();
  const code = await main(["publish", ...args], io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

async function caseOf(key: string) {
  const db = openDatabase(file);
  try {
    const found = await findCaseByKey(db, key);
    return found ? await getCase(db, found.id) : null;
  } finally {
    db.$client.close();
  }
}

describe("benchwork publish", () => {
  it("loads the example into the library with source code and file/row, and re-publishing changes nothing", async () => {
    const first = await publish([EXAMPLE, "--system", "support"]);
    expect(first.code).toBe(0);
    expect(first.out).toContain("prompts created: policy-lookup, refund-decision, policy-questions, gsm8k");
    expect(first.out).toContain("27 new, 0 revised, 0 unchanged");
    const db = openDatabase(file);
    const prompts = await listPrompts(db, "support");
    expect(prompts.map((p) => p.name)).toEqual(["gsm8k", "policy-lookup", "policy-questions", "refund-decision"]);
    const gsm = await listPromptCases(db, prompts[0].id);
    db.$client.close();
    expect(gsm).toHaveLength(20);
    expect(gsm.every((c) => c.source === "code")).toBe(true);
    expect(gsm[3]).toMatchObject({ caseKey: "gsm8k-test-0003", origin: { kind: "code", file: "data/gsm8k-test-first20.jsonl", row: 4 } });
    const holiday = await caseOf("holiday");
    expect(holiday).toMatchObject({ source: "code", promptName: "policy-questions", origin: { kind: "code", file: "evals/policy-questions.csv", row: 2 } });
    expect(holiday!.content).toMatchObject({
      input: "What is the holiday return window?",
      expected: "60 days",
      notes: "Policy questions\nHoliday purchases get longer",
      tools: ["lookup_policy"],
    });
    const late = await caseOf("late-order");
    expect(late!.content.notes).toMatch(/code evaluator: evals\/refund-decision.ts evaluate \(sha256 [0-9a-f]{12}\) runs only from the CLI/);
    expect(late!.content.data).toEqual({ expectedOrderId: "order_456", expectedEligible: false });

    const again = await publish([EXAMPLE, "--system", "support", "--json"]);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.out);
    expect(report).toMatchObject({ created: [], revised: [], disappeared: [], promptsCreated: [] });
    expect(report.unchanged).toHaveLength(27);
  }, 60_000);

  it("revises only changed cases and lists cases that disappeared from the code, leaving them as they are", async () => {
    const copy = mkdtempSync(path.join(tmpdir(), "benchwork-example-"));
    cpSync(EXAMPLE, copy, { recursive: true });
    symlinkSync(path.resolve("node_modules"), path.join(copy, "node_modules"), "dir");
    const csv = path.join(copy, "evals/policy-questions.csv");
    const lines = readFileSync(csv, "utf8").trimEnd().split("\n");
    // "holiday" gets a new expected text; the last row (policy-questions[3]) is dropped.
    writeFileSync(csv, [lines[0], lines[1], lines[2].replace("60 days", "sixty days"), lines[3]].join("\n") + "\n");
    const r = await publish([copy, "--system", "support"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("0 new, 1 revised, 25 unchanged");
    expect(r.out).toContain("revised: holiday → revision 2");
    expect(r.out).toContain("1 code case is no longer in the code (left as it is; pause or keep it in the library):");
    expect(r.out).toContain("policy-questions[3] (prompt policy-questions, active, was evals/policy-questions.csv row 4)");
    expect((await caseOf("holiday"))!).toMatchObject({ revisionNumber: 2, content: { expected: "sixty days" } });
    expect((await caseOf("policy-questions[3]"))!).toMatchObject({ status: "active", revisionNumber: 1, removedAt: null });
    expect((await caseOf("unopened"))!.revisionNumber).toBe(1);
  }, 60_000);

  it("revises a case whose evaluate function changed only through a helper constant it imports", async () => {
    const repo = mkdtempSync(path.join(tmpdir(), "benchwork-helper-"));
    mkdirSync(path.join(repo, "evals"));
    writeFileSync(
      path.join(repo, "benchmark.config.ts"),
      `export default { protocolVersion: 1, title: "H", version: "1", license: "MIT", evals: ["evals/e.ts"] };\n`,
    );
    writeFileSync(path.join(repo, "evals/rules.ts"), `export const MIN_LENGTH = 3;\n`);
    writeFileSync(
      path.join(repo, "evals/e.ts"),
      `import { MIN_LENGTH } from "./rules";\nexport default { id: "helper-hash-case", prompt: "p", evaluate: ({ output }: { output: string }) => output.length >= MIN_LENGTH };\n`,
    );
    expect((await publish([repo, "--system", "support"])).out).toContain("1 new, 0 revised, 0 unchanged");
    const before = (await caseOf("helper-hash-case"))!.content.notes;
    writeFileSync(path.join(repo, "evals/rules.ts"), `export const MIN_LENGTH = 30;\n`);
    const r = await publish([repo, "--system", "support"]);
    expect(r.out).toContain("0 new, 1 revised, 0 unchanged");
    const after = await caseOf("helper-hash-case");
    expect(after!.revisionNumber).toBe(2);
    expect(after!.content.notes).not.toBe(before);
  }, 60_000);

  it("exits 2 for an unknown system and without --system", async () => {
    const r = await publish([EXAMPLE, "--system", "nope"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--system: System "nope" does not exist/);
    expect((await publish([EXAMPLE])).code).toBe(2);
  }, 60_000);
});
