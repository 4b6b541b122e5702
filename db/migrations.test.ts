import { describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, openDatabase, migrateDatabase } from "./client";
import { listCases } from "./queries/cases";
import { createSystem } from "./queries/systems";

/** A copy of the migrations folder holding only the migrations before `tag` (a database made by an older release). */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "benchwork-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  for (const e of journal.entries.slice(at)) rmSync(path.join(dir, `${e.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe("migrations", () => {
  it("apply in order to an empty database and create every table", () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
    const tables = db.$client
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'case_search_%' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "__drizzle_migrations",
        "case_revisions",
        "case_search",
        "cases",
        "criteria",
        "criterion_revisions",
        "prompt_revisions",
        "prompts",
        "systems",
        "workspace_meta",
      ]),
    );
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const sqlFiles = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql"));
    expect(journal.entries.length).toBe(sqlFiles.length);
    const applied = db.$client.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    expect(applied.n).toBe(sqlFiles.length);
  });

  it("is a no-op the second time", () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
    migrateDatabase(db);
    const applied = db.$client.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    expect(applied.n).toBe(readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).length);
  });

  it("turns foreign keys on", () => {
    const db = openDatabase(":memory:");
    expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
  });

  it("0006 makes the case IDs of existing cases searchable, and keeps their text searchable", async () => {
    const old = migrationsBefore("0006_case_id_search_header_row");
    try {
      const db = openDatabase(":memory:");
      migrateDatabase(db, old);
      await createSystem(db, { id: "acme", name: "Acme" });
      // The prompt as rows of that schema (today's createPrompt writes columns added later).
      const now = Date.now();
      const promptId = Number(
        db.$client.prepare("INSERT INTO prompts (system_id, name, description, created_at) VALUES ('acme', 'agent', '', ?)").run(now).lastInsertRowid,
      );
      const revId = db.$client
        .prepare("INSERT INTO prompt_revisions (prompt_id, number, system_prompt, model_settings, tools, created_at) VALUES (?, 1, '', '{}', '[]', ?)")
        .run(promptId, now).lastInsertRowid;
      db.$client.prepare("UPDATE prompts SET current_revision_id = ? WHERE id = ?").run(revId, promptId);
      // The case as rows of that schema too (today's addCase writes author columns added in a later migration).
      const caseId = db.$client
        .prepare(
          "INSERT INTO cases (case_key, system_id, prompt_id, source, status, revision_number, created_at, updated_at) VALUES ('refund-late-kettle', 'acme', ?, 'custom', 'active', 1, ?, ?)",
        )
        .run(promptId, now, now).lastInsertRowid;
      const caseRevId = db.$client
        .prepare("INSERT INTO case_revisions (case_id, number, input, expected, details, created_at) VALUES (?, 1, ?, ?, '{}', ?)")
        .run(caseId, "Where is my parcel?", "Ask for the order number", now).lastInsertRowid;
      db.$client.prepare("UPDATE cases SET current_revision_id = ? WHERE id = ?").run(caseRevId, caseId);
      migrateDatabase(db);
      expect((await listCases(db, { systemId: "acme", q: "late-kettle" })).rows.map((r) => r.caseKey)).toEqual(["refund-late-kettle"]);
      expect((await listCases(db, { systemId: "acme", q: "parcel" })).rows.map((r) => r.caseKey)).toEqual(["refund-late-kettle"]);
      expect((await listCases(db, { systemId: "acme", q: "order number" })).total).toBe(1);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});
