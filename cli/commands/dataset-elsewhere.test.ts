/**
 * `benchwork dataset import` / `dataset inspect` run from outside the project folder (issue 20): the
 * import worker is found from the install (like the migrations), not from the working directory.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "@/db/client";
import { createSystem } from "@/db/queries/systems";
import { ensureWorkerBundles } from "../../scripts/worker-bundles.mjs";

const BIN = path.join(process.cwd(), "cli/bin.mjs");

/** Runs the `benchwork` command in `cwd` (BENCHWORK_ROOT unset, as a user's shell has it). */
function benchwork(args: string[], cwd: string, db: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, BENCHWORK_DB: db, BENCHWORK_ROOT: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
}

// The build step (only when missing or stale): a command on current bundles says nothing on stderr.
beforeAll(() => ensureWorkerBundles({ root: process.cwd(), names: ["cli", "import-parser"], log: () => {} }), 120_000);

describe("benchwork dataset commands from another folder", () => {
  it("imports and inspects a file with the import worker of the install, wherever the command runs", async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), "benchwork-elsewhere-"));
    const db = path.join(elsewhere, "bench.db");
    const store = openDatabase(db);
    migrateDatabase(store);
    await createSystem(store, { id: "acme", name: "Acme" });
    store.$client.close();
    writeFileSync(path.join(elsewhere, "faq.csv"), "question,answer\nWhere is my order?,Ask for the order number\nCan I return it?,Yes within 30 days\n");

    const inspected = await benchwork(["dataset", "inspect", "faq.csv"], elsewhere, db);
    expect(inspected.err).toBe("");
    expect(inspected.code).toBe(0);
    const imported = await benchwork(["dataset", "import", "faq.csv", "--system", "acme", "--name", "faq"], elsewhere, db);
    expect(imported.err).toBe("");
    expect(imported.out.split("\n")[0]).toMatch(/^Saved dataset "faq" version 1 \(dataset #\d+\) in .+: 2 row\(s\)\.$/);
    expect(imported.code).toBe(0);
  }, 60_000);
});
