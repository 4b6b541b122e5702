import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { main } from "../main";
import { captureIo, tempFiles } from "../testing";
import { migrateDatabase, openDatabase } from "@/db/client";
import { createPrompt, createSystem } from "@/db/queries/systems";
import { getDatasetVersion, listDatasets } from "@/db/queries/datasets";

const GOOD = "question,answer,notes\nWhere is my order?,Ask for the order number,\nCan I return it?,Yes within 30 days,mail ann@example.com\n";
const BLOCKED = "question,answer,model_6b_output\nWhere is my order?,Ask for the order number,On its way\nCan I return it?,,Sure\n";

const dir = tempFiles({
  "good.csv": GOOD,
  "blocked.csv": BLOCKED,
  "broken.json": '[{"question": "a", ',
  "mapping.json": [
    { column: "question", role: "input" },
    { column: "answer", role: "expected" },
    { column: "model_6b_output", role: "actual_output", candidate: "model-6b" },
  ],
  "fix.json": {
    mapping: [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ],
    corrections: { "2": { answer: "Yes" } },
  },
  "exclude.json": {
    mapping: [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ],
    excludedRows: [2],
  },
  "bad-mapping.json": "{ nope",
  "bad-role.json": [{ column: "question", role: "prompt" }],
  "unknown-column.json": [
    { column: "nope", role: "input" },
    { column: "answer", role: "expected" },
  ],
  "bad-correction.json": {
    mapping: [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ],
    corrections: { "9": { answer: "x" } },
  },
  "no-roles.csv": "alpha,beta\n1,2\n",
  "contact.csv": "question,answer\nHow do I delete my data? I am ann@example.com,Contact privacy@northwind.example\n",
  "keep.json": {
    mapping: [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ],
    redaction: { enabled: true, keep: ["*@northwind.example"] },
  },
  "off.json": {
    mapping: [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
    ],
    redaction: { enabled: false, keep: [] },
  },
  "titled.csv":
    "Customer FAQ export,,\n,,\nquestion,answer,tier\nWhere is my order?,Ask for the order number,gold\nCan I return it?,Yes within 30 days,silver\n",
});
const f = (n: string) => path.join(dir, n);
for (const x of ["multi-sheet.xlsx", "zip-bomb.xlsx", "not-a-zip.xlsx", "one-visible.xlsx"]) copyFileSync(`lib/import/fixtures/xlsx/${x}`, f(x));
const dbFile = f("bench.db");
const saved = { db: process.env.BENCHWORK_DB, max: process.env.BENCHWORK_IMPORT_MAX_BYTES };

beforeAll(async () => {
  process.env.BENCHWORK_DB = dbFile;
  const db = openDatabase(dbFile);
  migrateDatabase(db);
  await createSystem(db, { id: "acme", name: "Acme" });
  await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "Help." });
  db.$client.close();
});
afterAll(() => {
  process.env.BENCHWORK_DB = saved.db;
  if (saved.max === undefined) delete process.env.BENCHWORK_IMPORT_MAX_BYTES;
  else process.env.BENCHWORK_IMPORT_MAX_BYTES = saved.max;
});

async function run(argv: string[]) {
  const io = captureIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join("\n"), err: io.stderr.join("\n") };
}

async function datasetVersions(name: string): Promise<number[]> {
  const db = openDatabase(dbFile);
  try {
    return (await listDatasets(db, "acme")).find((d) => d.name === name)?.versions.map((v) => v.version) ?? [];
  } finally {
    db.$client.close();
  }
}

describe("benchwork dataset inspect", () => {
  it("--json prints one object with the documented keys, rows exactly as stored, and exits 0 for an importable file", async () => {
    const r = await run(["dataset", "inspect", f("good.csv"), "--json"]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out);
    expect(Object.keys(o)).toEqual([
      "format",
      "encoding",
      "delimiter",
      "headerRow",
      "headerDetected",
      "columns",
      "rowCount",
      "rows",
      "problems",
      "suggestedMapping",
    ]);
    expect(o).toMatchObject({ headerRow: 1, headerDetected: false });
    expect(o).toMatchObject({ format: "csv", encoding: "utf-8", delimiter: ",", columns: ["question", "answer", "notes"], rowCount: 2 });
    expect(o.rows).toEqual([
      { question: "Where is my order?", answer: "Ask for the order number", notes: "" },
      { question: "Can I return it?", answer: "Yes within 30 days", notes: "mail ann@example.com" },
    ]);
    expect(o.problems).toEqual([]);
    expect(o.suggestedMapping).toEqual([
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
      { column: "notes", role: "notes" },
    ]);
  });

  it("exits 1 and prints the problems that block import, with row, line and column", async () => {
    const json = await run(["dataset", "inspect", f("blocked.csv"), "--json"]);
    expect(json.code).toBe(1);
    const o = JSON.parse(json.out);
    expect(o.problems).toContainEqual({
      severity: "error",
      code: "missing_expected",
      row: 2,
      line: 3,
      column: "answer",
      message: "Row 2 has no expected result.",
    });
    expect(o.suggestedMapping).toContainEqual({ column: "model_6b_output", role: "actual_output", candidate: "model-6b" });
    const text = await run(["dataset", "inspect", f("blocked.csv")]);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^blocked\.csv: CSV, utf-8, delimiter ","/);
    expect(text.out).toMatch(/model_6b_output\s+actual output \(model-6b\)/);
    expect(text.out).toMatch(/error\s+row 2 \(line 3\), column "answer": Row 2 has no expected result\./);
  });

  it("lists the sheets of a workbook (hidden ones marked) and reads the one chosen with --sheet", async () => {
    const multi = await run(["dataset", "inspect", f("multi-sheet.xlsx"), "--json"]);
    expect(multi.code).toBe(1);
    const o = JSON.parse(multi.out);
    expect(o).toMatchObject({ format: "xlsx", encoding: null, sheet: null, needsSheet: true, rowCount: 0, suggestedMapping: [] });
    expect(o.sheets.length).toBeGreaterThan(1);
    const sheet = o.sheets.find((s: { hidden: boolean }) => !s.hidden).name as string;
    const one = await run(["dataset", "inspect", f("multi-sheet.xlsx"), "--sheet", sheet, "--json"]);
    expect(JSON.parse(one.out).sheet).toBe(sheet);
    const text = await run(["dataset", "inspect", f("one-visible.xlsx")]);
    expect(text.out).toMatch(/Sheets: .*\(hidden\)/);
  });

  it("exits 1 for a refused file (corrupt, zip bomb, over the size limit) with a clear message", async () => {
    const corrupt = await run(["dataset", "inspect", f("not-a-zip.xlsx")]);
    expect(corrupt.code).toBe(1);
    expect(corrupt.err).toMatch(/^benchwork: not-a-zip\.xlsx/);
    const bomb = await run(["dataset", "inspect", f("zip-bomb.xlsx")]);
    expect(bomb.code).toBe(1);
    expect(bomb.err).toMatch(/zip-bomb\.xlsx/);
    const broken = await run(["dataset", "inspect", f("broken.json"), "--json"]);
    expect(broken.code).toBe(1);
    expect(broken.out).toBe("");
    process.env.BENCHWORK_IMPORT_MAX_BYTES = "10";
    try {
      const big = await run(["dataset", "inspect", f("good.csv")]);
      expect(big.code).toBe(1);
      expect(big.err).toMatch(/good\.csv is \d+ bytes .*the limit is 10 bytes/);
    } finally {
      delete process.env.BENCHWORK_IMPORT_MAX_BYTES;
    }
  });

  it("exits 2 on usage errors: missing file, unknown sheet, unknown option", async () => {
    expect((await run(["dataset", "inspect", f("missing.csv")])).err).toMatch(/missing\.csv: cannot be read \(ENOENT\)/);
    for (const argv of [
      ["dataset", "inspect", f("missing.csv")],
      ["dataset", "inspect", f("multi-sheet.xlsx"), "--sheet", "Nope"],
      ["dataset", "inspect"],
      ["dataset", "inspect", f("good.csv"), "--frob"],
    ]) {
      expect((await run(argv)).code, argv.join(" ")).toBe(2);
    }
  });
});

describe("benchwork dataset import", () => {
  it("saves version 1, then version 2 under the same name, redacting personal data", async () => {
    const r1 = await run(["dataset", "import", f("good.csv"), "--system", "acme", "--name", "faq"]);
    expect(r1.code).toBe(0);
    // The store it went to is named, as other store commands do (issue 20).
    expect(r1.out.split("\n")[0]).toMatch(/^Saved dataset "faq" version 1 \(dataset #\d+\) in (.+): 2 row\(s\)\.$/);
    expect(r1.out.split("\n")[0]).toContain(` in ${dbFile}: `);
    expect(r1.out).toMatch(/Redacted: 1 EMAIL\./);
    const r2 = await run(["dataset", "import", f("good.csv"), "--system", "acme", "--name", "faq", "--json"]);
    expect(r2.code).toBe(0);
    const o = JSON.parse(r2.out);
    expect(o).toMatchObject({ name: "faq", version: 2, rowCount: 2 });
    expect(await datasetVersions("faq")).toEqual([2, 1]);
    const db = openDatabase(dbFile);
    const v = await getDatasetVersion(db, "acme", o.datasetId, 2);
    db.$client.close();
    expect(v!.records[1].notes).toBe("mail [EMAIL_1]");
  });

  it("uses a mapping file, with corrections or excluded rows", async () => {
    expect((await run(["dataset", "import", f("blocked.csv"), "--system", "acme", "--name", "fixed", "--mapping", f("fix.json")])).code).toBe(0);
    expect((await run(["dataset", "import", f("blocked.csv"), "--system", "acme", "--name", "fixed", "--mapping", f("exclude.json")])).out).toMatch(
      /version 2 .*2 row\(s\), 1 excluded/,
    );
  });

  it("finds the header below a title and a blank line, or takes the one given with --header-row", async () => {
    const inspected = await run(["dataset", "inspect", f("titled.csv"), "--json"]);
    expect(inspected.code).toBe(0);
    const o = JSON.parse(inspected.out);
    expect(o).toMatchObject({ columns: ["question", "answer", "tier"], rowCount: 2, headerRow: 3, headerDetected: true });
    const human = await run(["dataset", "inspect", f("titled.csv")]);
    expect(human.out).toMatch(/Header: line 3 \(detected; lines above it left out\)/);

    const saved = await run(["dataset", "import", f("titled.csv"), "--system", "acme", "--name", "titled", "--json"]);
    expect(saved.code).toBe(0);
    const { datasetId } = JSON.parse(saved.out);
    const db = openDatabase(dbFile);
    const v = await getDatasetVersion(db, "acme", datasetId, 1);
    db.$client.close();
    expect(v).toMatchObject({ headerRow: 3, columns: ["question", "answer", "tier"], rowCount: 2 });
    expect(v!.records[0]).toEqual({ question: "Where is my order?", answer: "Ask for the order number", tier: "gold" });

    // As read (line 1): the title is the only column name, nothing maps to the input: refused.
    const asRead = await run(["dataset", "inspect", f("titled.csv"), "--header-row", "1", "--json"]);
    expect(JSON.parse(asRead.out)).toMatchObject({ columns: ["Customer FAQ export", "column_2", "column_3"], headerRow: 1, headerDetected: false });
    const bad = await run(["dataset", "import", f("titled.csv"), "--system", "acme", "--name", "titled", "--header-row", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--header-row: Line 2 of titled\.csv is not a row of its table/);
    expect(await datasetVersions("titled")).toEqual([1]);
  });

  it("takes the dataset's redaction settings from the mapping file; later versions keep them unless told otherwise", async () => {
    const records = async (version: number) => {
      const db = openDatabase(dbFile);
      try {
        const id = (await listDatasets(db, "acme")).find((d) => d.name === "contacts")!.id;
        const v = (await getDatasetVersion(db, "acme", id, version))!;
        return { row: v.records[0], settings: v.redaction.settings, kept: v.redaction.kept };
      } finally {
        db.$client.close();
      }
    };
    const first = await run(["dataset", "import", f("contact.csv"), "--system", "acme", "--name", "contacts", "--mapping", f("keep.json")]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/Kept as written: \*@northwind\.example \(1\)\./);
    expect(await records(1)).toEqual({
      row: { question: "How do I delete my data? I am [EMAIL_1]", answer: "Contact privacy@northwind.example" },
      settings: { enabled: true, keep: ["*@northwind.example"] },
      kept: [{ entry: "*@northwind.example", count: 1 }],
    });
    // Version 2 without a mapping file: the dataset's keep-list still applies.
    expect((await run(["dataset", "import", f("contact.csv"), "--system", "acme", "--name", "contacts"])).code).toBe(0);
    expect((await records(2)).row.answer).toBe("Contact privacy@northwind.example");
    // Version 3 turns redaction off.
    const off = await run(["dataset", "import", f("contact.csv"), "--system", "acme", "--name", "contacts", "--mapping", f("off.json")]);
    expect(off.out).toMatch(/Redaction: off \(nothing was replaced\)\./);
    expect(await records(3)).toMatchObject({ row: { question: "How do I delete my data? I am ann@example.com" }, settings: { enabled: false, keep: [] } });
  });

  it("exits 1 and saves nothing when rows are blocked or the file is refused", async () => {
    const blocked = await run(["dataset", "import", f("blocked.csv"), "--system", "acme", "--name", "blocked", "--mapping", f("mapping.json")]);
    expect(blocked.code).toBe(1);
    expect(blocked.err).toMatch(/error\s+row 2 \(line 3\), column "answer": Row 2 has no expected result\./);
    expect(blocked.err).toMatch(/1 row\(s\) of blocked\.csv cannot become cases .*Nothing was saved\./);
    const corrupt = await run(["dataset", "import", f("not-a-zip.xlsx"), "--system", "acme", "--name", "blocked"]);
    expect(corrupt.code).toBe(1);
    const noRoles = await run(["dataset", "import", f("no-roles.csv"), "--system", "acme", "--name", "blocked"]);
    expect(noRoles.code).toBe(1);
    expect(noRoles.err).toMatch(/No column is mapped to the input/);
    expect(await datasetVersions("blocked")).toEqual([]);
  });

  it("exits 2 on usage errors: unknown system, missing file, bad mapping JSON, bad mapping, no sheet, bad name", async () => {
    const cases: [string[], RegExp][] = [
      [["dataset", "import", f("good.csv"), "--system", "nope", "--name", "x"], /--system: no system "nope"/],
      [["dataset", "import", f("missing.csv"), "--system", "acme", "--name", "x"], /missing\.csv: cannot be read/],
      [["dataset", "import", f("good.csv"), "--system", "acme", "--name", "x", "--mapping", f("bad-mapping.json")], /bad-mapping\.json: not valid JSON/],
      [["dataset", "import", f("good.csv"), "--system", "acme", "--name", "x", "--mapping", f("missing.json")], /missing\.json: cannot be read/],
      [
        ["dataset", "import", f("good.csv"), "--system", "acme", "--name", "x", "--mapping", f("bad-role.json")],
        /bad-role\.json: mapping\.0\.role: Invalid option/,
      ],
      [
        ["dataset", "import", f("good.csv"), "--system", "acme", "--name", "x", "--mapping", f("unknown-column.json")],
        /column "nope", which the file does not have/,
      ],
      [["dataset", "import", f("good.csv"), "--system", "acme", "--name", "x", "--mapping", f("bad-correction.json")], /row 9, but the file has rows 1–2/],
      [["dataset", "import", f("multi-sheet.xlsx"), "--system", "acme", "--name", "x"], /several worksheets .*Pass --sheet NAME/],
      [["dataset", "import", f("good.csv"), "--system", "acme", "--name", "  "], /Dataset name is required/],
      [["dataset", "import", f("good.csv"), "--name", "x"], /required option '--system/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toMatch(message);
    }
    expect(await datasetVersions("x")).toEqual([]);
  });
});

describe("benchwork dataset import --use (issue 15)", () => {
  const CAPS =
    "id,question,expected,model_a_answer,model_b_answer\ncap-01,Capital of France?,Paris,Paris,paris\ncap-02,Capital of Spain?,Madrid,Madrid,Madrid\n";
  const caps = path.join(
    tempFiles({ "caps.csv": CAPS, "caps2.csv": CAPS.replace("Madrid,Madrid,Madrid", "Madrid,Madrid,Barcelona") + "cap-03,Capital of Italy?,Rome,Rome,Rome\n" }),
    "caps.csv",
  );
  const caps2 = path.join(path.dirname(caps), "caps2.csv");

  async function casesOf(promptName: string) {
    const db = openDatabase(dbFile);
    try {
      const { listPrompts } = await import("@/db/queries/systems");
      const { listPromptCases } = await import("@/db/queries/cases");
      const p = (await listPrompts(db, "acme")).find((x) => x.name === promptName)!;
      return (await listPromptCases(db, p.id)).map((c) => ({
        key: c.caseKey,
        evaluators: c.content.evaluators,
        expected: c.content.expected,
        origin: c.origin,
      }));
    } finally {
      db.$client.close();
    }
  }

  it("saves the version and adds its golden cases to the prompt with the proposed exact check", async () => {
    const r = await run(["dataset", "import", caps, "--system", "acme", "--name", "capitals", "--use", "agent"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("Checks: Exact match with the expected result (case-sensitive).");
    expect(r.out).toContain("Added 2 golden case(s) to agent.");
    expect(await casesOf("agent")).toEqual([
      expect.objectContaining({ key: "cap-01", evaluators: [{ kind: "exact" }] }),
      expect.objectContaining({ key: "cap-02", evaluators: [{ kind: "exact" }] }),
    ]);
  });

  it("a collision of case IDs is a usage error naming the choices; --on-collision revise makes new revisions from the earlier version", async () => {
    const refused = await run(["dataset", "import", caps2, "--system", "acme", "--name", "capitals", "--use", "agent", "--checks", "exact,contains"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("--on-collision skip|prefix|revise");
    expect(refused.err).toContain("row 1 (“cap-01”)");
    // Nothing was saved: the version and the cases are as before.
    expect(await datasetVersions("capitals")).toEqual([1]);
    const r = await run([
      "dataset",
      "import",
      caps2,
      "--system",
      "acme",
      "--name",
      "capitals",
      "--use",
      "agent",
      "--checks",
      "exact,contains",
      "--on-collision",
      "revise",
    ]);
    expect(r.err).toBe("");
    expect(r.out).toContain("Added 1 golden case(s) to agent; 2 existing case(s) got a new revision.");
    const after = await casesOf("agent");
    expect(after.map((c) => [c.key, c.evaluators])).toEqual([
      ["cap-01", [{ kind: "exact" }, { kind: "contains" }]],
      ["cap-02", [{ kind: "exact" }, { kind: "contains" }]],
      ["cap-03", [{ kind: "exact" }, { kind: "contains" }]],
    ]);
  });

  it("refuses an unknown prompt, an unknown check and an unknown choice as usage errors, saving nothing", async () => {
    const a = await run(["dataset", "import", caps, "--system", "acme", "--name", "nope1", "--use", "nobody"]);
    expect([a.code, a.err]).toEqual([2, expect.stringContaining('--use: system "acme" has no prompt "nobody"')]);
    const b = await run(["dataset", "import", caps, "--system", "acme", "--name", "nope2", "--use", "agent", "--checks", "exactly"]);
    expect([b.code, b.err]).toEqual([2, expect.stringContaining('"exactly" is not a check')]);
    const c = await run(["dataset", "import", caps, "--system", "acme", "--name", "nope3", "--use", "agent", "--on-collision", "merge"]);
    expect([c.code, c.err]).toEqual([2, expect.stringContaining("--on-collision must be skip, prefix or revise")]);
    expect(await datasetVersions("nope1")).toEqual([]);
    expect(await datasetVersions("nope2")).toEqual([]);
    expect(await datasetVersions("nope3")).toEqual([]);
  });

  it("checks the rows against the target prompt's template variables only, not those of the system's other prompts", async () => {
    const db = openDatabase(dbFile);
    try {
      await createPrompt(db, { systemId: "acme", name: "greeter", systemPrompt: "Greet {{customer}} warmly." });
      await createPrompt(db, { systemId: "acme", name: "router", systemPrompt: "Label the message." });
    } finally {
      db.$client.close();
    }
    const r = await run(["dataset", "import", caps, "--system", "acme", "--name", "router-caps", "--use", "router"]);
    expect(r.err).toBe("");
    expect(r.out).toContain("Added 2 golden case(s) to router.");
    // router's template has no variable: no warning about greeter's {{customer}}.
    expect(r.out).not.toContain("{{customer}}");
    expect(r.out).not.toContain("warning");
    // Without --use the target is not known: every prompt's variables count (issue 3).
    const plain = await run(["dataset", "import", caps, "--system", "acme", "--name", "any-caps"]);
    expect(plain.out).toContain("The prompt template uses {{customer}} but no column is mapped to it");
  });
});
