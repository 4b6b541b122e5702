/**
 * db/schema.ts (SQLite) and db/schema-pg.ts (PostgreSQL) describe the same store: the same tables,
 * columns (kind, nullability, default, primary key, uniqueness, enum values), indexes (columns,
 * unique, partial condition) and foreign keys. Compared through drizzle's own table configs.
 */
import { getTableName, is, SQL, type Column } from "drizzle-orm";
import { getTableConfig as pgConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as sqliteSchema from "./schema";
import * as pgSchema from "./schema-pg";

/**
 * Column kinds in both dialects. SQLite keeps JSON as text; PostgreSQL as jsonb: a pg jsonb column
 * matches a SQLite text column only when it is listed in JSON_COLUMNS (so no other text column
 * turns into jsonb unnoticed).
 */
const KIND: Record<string, string> = {
  SQLiteText: "text",
  SQLiteInteger: "integer",
  SQLiteBoolean: "boolean",
  SQLiteReal: "real",
  SQLiteBlobBuffer: "bytes",
  SQLiteTimestamp: "integer", // ms since the epoch on both (db/pg/store.ts maps Dates)
  PgText: "text",
  PgInteger: "integer",
  PgBigInt53: "integer",
  PgBoolean: "boolean",
  PgDoublePrecision: "real",
  PgJsonb: "json",
  PgJson: "json",
};

const JSON_COLUMNS = new Set([
  "prompt_default_checks.checks",
  "prompt_revisions.model_settings",
  "prompt_revisions.tools",
  "cases.origin",
  "case_revisions.details",
  "benches.settings",
  "benches.rubric",
  "benches.baseline",
  "benches.judge",
  "benches.summary",
  "benches.recommendation",
  "bench_candidates.model_config",
  "trials.record",
  "trials.checks",
  "dataset_versions.columns",
  "dataset_versions.mapping",
  "dataset_versions.rows",
  "dataset_versions.excluded_rows",
  "dataset_versions.corrections",
  "dataset_versions.checks",
  "dataset_versions.redaction_report",
  "dataset_versions.problems",
  "generation_runs.dropped",
  "generation_runs.diversity",
  "generation_runs.usage",
  "generation_runs.concepts",
  "proposals.content",
]);

function kindOf(table: string, c: Column, dialect: "sqlite" | "pg"): string {
  const t = c.columnType === "PgCustomColumn" ? (c.getSQLType() === "bytea" ? "bytes" : c.getSQLType()) : KIND[c.columnType];
  if (!t) throw new Error(`${table}.${c.name}: unknown column type ${c.columnType}`);
  if (dialect === "sqlite" && t === "text" && JSON_COLUMNS.has(`${table}.${c.name}`)) return "json";
  return t;
}

/** A default as a comparable value: SQLite's JSON text defaults are parsed. */
function defaultOf(table: string, c: Column): unknown {
  if (!c.hasDefault) return undefined;
  if (is(c.default, SQL)) return { sql: new PgDialect().sqlToQuery(c.default).sql };
  if (typeof c.default === "string" && JSON_COLUMNS.has(`${table}.${c.name}`)) return JSON.parse(c.default);
  return c.default;
}

function whereOf(where: SQL | undefined, dialect: "sqlite" | "pg"): string | null {
  if (!where) return null;
  return (dialect === "pg" ? new PgDialect() : new SQLiteSyncDialect()).sqlToQuery(where).sql;
}

type Described = Record<string, unknown>;

function describeTable(table: SQLiteTable | PgTable, dialect: "sqlite" | "pg"): Described {
  const cfg = dialect === "pg" ? pgConfig(table as PgTable) : sqliteConfig(table as SQLiteTable);
  const name = cfg.name;
  const columns = Object.fromEntries(
    cfg.columns
      .map((c: Column) => [
        c.name,
        {
          kind: kindOf(name, c, dialect),
          notNull: c.notNull,
          primary: c.primary,
          unique: c.isUnique,
          default: defaultOf(name, c),
          enum: c.enumValues ?? null,
        },
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  const indexes = Object.fromEntries(
    cfg.indexes
      .map((i) => {
        const c = i.config as { name?: string; unique: boolean; columns: unknown[]; where?: SQL };
        const cols = c.columns.map((col) => (col as { name?: string }).name ?? "?");
        return [c.name, { unique: c.unique, columns: cols, where: whereOf(c.where, dialect) }];
      })
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  const foreignKeys = cfg.foreignKeys
    .map((fk) => {
      const r = fk.reference();
      return `${r.columns.map((c) => c.name).join(",")} -> ${getTableName(r.foreignTable)}(${r.foreignColumns.map((c) => c.name).join(",")})`;
    })
    .sort();
  const primaryKeys = cfg.primaryKeys.map((pk) => pk.columns.map((c) => c.name).join(",")).sort();
  const uniques = cfg.uniqueConstraints.map((u) => u.columns.map((c) => c.name).join(",")).sort();
  return { columns, indexes, foreignKeys, primaryKeys, uniques };
}

function tables(schema: Record<string, unknown>, dialect: "sqlite" | "pg"): Record<string, Described> {
  const out: Record<string, Described> = {};
  for (const value of Object.values(schema)) {
    if (dialect === "sqlite" ? is(value, SQLiteTable) : is(value, PgTable))
      out[getTableName(value as SQLiteTable)] = describeTable(value as SQLiteTable, dialect);
  }
  return out;
}

describe("db/schema-pg.ts mirrors db/schema.ts", () => {
  const sqlite = tables(sqliteSchema, "sqlite");
  const pg = tables(pgSchema, "pg");

  it("declares the same tables", () => {
    expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort());
    expect(Object.keys(sqlite).length).toBeGreaterThan(15);
  });

  for (const name of Object.keys(tables(sqliteSchema, "sqlite"))) {
    it(`table ${name}: same columns, indexes, constraints and foreign keys`, () => {
      expect(pg[name]).toEqual(sqlite[name]);
    });
  }

  it("lists only JSON columns that exist in both schemas", () => {
    for (const c of JSON_COLUMNS) {
      const [table, column] = c.split(".");
      expect((sqlite[table]?.columns as Record<string, { kind: string }>)?.[column]?.kind, c).toBe("json");
    }
  });
});
