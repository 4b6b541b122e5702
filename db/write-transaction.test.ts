/**
 * Write transactions take the write lock when they begin (issue "Seal the server and the
 * sandboxes" #7). A deferred transaction that reads first holds a read snapshot; when another
 * connection commits before it writes, SQLite cannot upgrade that snapshot and the write fails at
 * once with SQLITE_BUSY_SNAPSHOT (no busy timeout helps). These tests make that interleaving happen
 * every time: a query logger on connection A lets connection B commit just before A's first write.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrateDatabase, openDatabase, type Db } from "./client";
import * as schema from "./schema";
import { addCase, saveCaseRevision, setCaseStatus } from "./queries/cases";
import { addCriterion } from "./queries/criteria";
import { createPrompt, createSystem } from "./queries/systems";
import { content } from "./testing";

let dir: string;
let file: string;
let promptId: number;
let caseId: number;
let criterionId: number;
const opened: Db[] = [];

function open(through = file): Db {
  const db = openDatabase(through);
  opened.push(db);
  return db;
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "benchwork-write-tx-"));
  file = path.join(dir, "b.db");
  const db = open();
  migrateDatabase(db);
  await createSystem(db, { id: "acme", name: "Acme" });
  promptId = await createPrompt(db, { systemId: "acme", name: "agent", systemPrompt: "Help." });
  ({ id: caseId } = await addCase(db, { systemId: "acme", promptId, caseKey: "edited", source: "custom", content: content("q", "a") }));
  criterionId = await addCriterion(db, { systemId: "acme", promptId, fields: { rule: "Polite", passes: "yes", fails: "no", priority: "primary" } });
});

afterEach(() => {
  for (const db of opened.splice(0)) db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Connection A whose first write inside a transaction is preceded by `other()` on connection B.
 * B does not wait for locks (busy_timeout 0): when A already holds the write lock, B's commit fails
 * with SQLITE_BUSY and is done again once A has committed, as a waiting writer would. B stands for
 * another process: it opens the file through a symlinked folder, so it does not share this process's
 * queue of transactions per file (db/transaction.ts), only SQLite's locks.
 */
function interleaved(other: (b: Db) => Promise<unknown> | unknown): { a: Db; b: Db; bWaited: () => boolean; finishB: () => Promise<void> } {
  const alias = path.join(dir, "other-process");
  if (!existsSync(alias)) symlinkSync(dir, alias);
  const b = open(path.join(alias, path.basename(file)));
  b.$client.pragma("busy_timeout = 0");
  let fired = false;
  let waited = false;
  let pending: Promise<unknown> | null = null;
  const base = open();
  const a = drizzle({
    client: base.$client as never,
    schema,
    logger: {
      logQuery(query: string) {
        if (fired || !base.$client.inTransaction || !/^\s*(insert|update|delete)\b/i.test(query)) return;
        fired = true;
        try {
          // better-sqlite3 is synchronous: B's write has committed (or failed) before A's runs.
          const r = other(b);
          if (r instanceof Promise) pending = r.catch((e: unknown) => onBusy(e));
        } catch (e) {
          onBusy(e);
        }
      },
    },
  }) as unknown as Db;
  function onBusy(e: unknown) {
    if ((e as { code?: string }).code !== "SQLITE_BUSY") throw e;
    waited = true;
  }
  return {
    a,
    b,
    bWaited: () => waited,
    async finishB() {
      await pending;
      if (waited) await other(b);
    },
  };
}

const revisions = (db: Db) => (db.$client.prepare("SELECT count(*) AS n FROM case_revisions").get() as { n: number }).n;
const addOther = (b: Db) => addCase(b, { systemId: "acme", promptId, caseKey: "from-b", source: "custom", content: content("b", "b") });

describe("write transactions while another connection commits", () => {
  it("addCase succeeds when another connection commits between its read and its write", async () => {
    const { a, b, finishB } = interleaved(addOther);
    const before = revisions(b);
    const added = await addCase(a, { systemId: "acme", promptId, caseKey: "from-a", source: "custom", content: content("a", "a") });
    await finishB();
    expect(added.caseKey).toBe("from-a");
    expect(revisions(b)).toBe(before + 2);
    const keys = (b.$client.prepare("SELECT case_key AS k FROM cases ORDER BY case_key").all() as { k: string }[]).map((r) => r.k);
    expect(keys).toEqual(["edited", "from-a", "from-b"]);
  });

  it("saveCaseRevision succeeds, and the other connection's write waits for it instead of breaking it", async () => {
    const { a, b, bWaited, finishB } = interleaved(addOther);
    const saved = await saveCaseRevision(a, caseId, 1, { input: "q2", expected: "a2", notes: "", history: [], variables: [], context: [] });
    await finishB();
    expect(saved.revisionNumber).toBe(2);
    // A held the write lock from its first statement: B could not slip a commit in between.
    expect(bWaited()).toBe(true);
    expect(b.$client.prepare("SELECT revision_number AS n FROM cases WHERE id = ?").get(caseId)).toEqual({ n: 2 });
  });

  it("setCaseStatus and addCriterion (read, then write) succeed too", async () => {
    const one = interleaved(addOther);
    expect(await setCaseStatus(one.a, caseId, "paused")).toEqual({ caseKey: "edited" });
    await one.finishB();
    const two = interleaved((b) => saveCaseRevision(b, caseId, 1, { input: "q3", expected: "a3", notes: "", history: [], variables: [], context: [] }));
    const id = await addCriterion(two.a, { systemId: "acme", promptId, fields: { rule: "Short", passes: "yes", fails: "no", priority: "secondary" } });
    await two.finishB();
    expect(id).toBeGreaterThan(criterionId);
    expect(one.b.$client.prepare("SELECT status, revision_number AS n FROM cases WHERE id = ?").get(caseId)).toEqual({ status: "paused", n: 2 });
  });
});

describe("one way to write a transaction", () => {
  it("Db and its connection offer no transaction of their own (tsc fails on a deferred one)", () => {
    const db = open();
    // @ts-expect-error transactions go through writeTransaction (db/write-transaction.ts)
    expect(typeof db.transaction).toBe("function");
    // @ts-expect-error and raw ones through immediateTransaction
    expect(typeof db.$client.transaction).toBe("function");
  });

  it("no source file opens a transaction except through db/write-transaction.ts, db/transaction.ts (both stores) or db/pg/client.ts (PostgreSQL)", () => {
    const root = path.resolve(__dirname, "..");
    // The PostgreSQL store's one transaction seam (issue 20): BEGIN … COMMIT on one pooled client.
    const seams = [path.join(root, "db", "write-transaction.ts"), path.join(root, "db", "transaction.ts"), path.join(root, "db", "pg", "client.ts")];
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        if (name === "node_modules" || name.startsWith(".") || name === "migrations") continue;
        const p = path.join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|tsx|mts|mjs|js)$/.test(name) && !/\.test\.ts$/.test(name) && !seams.includes(p)) {
          const text = readFileSync(p, "utf8");
          if (/\.transaction\(/.test(text) || /["'`]\s*BEGIN\b/i.test(text)) offenders.push(path.relative(root, p));
        }
      }
    };
    for (const top of ["app", "cli", "db", "lib", "server", "scripts", "bench", "components"]) walk(path.join(root, top));
    expect(offenders).toEqual([]);
  });
});
