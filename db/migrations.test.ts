import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR, openDatabase, migrateDatabase } from "./client";

describe("migrations", () => {
  it("apply in order to an empty database and create every table", () => {
    const db = openDatabase(":memory:");
    migrateDatabase(db);
    const tables = db.$client
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'case_search_%' ORDER BY name")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(
      expect.arrayContaining(["__drizzle_migrations", "case_revisions", "case_search", "cases", "criteria", "criterion_revisions", "prompt_revisions", "prompts", "systems", "workspace_meta"]),
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
});
