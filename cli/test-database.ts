/** Test helper: the database a CLI command under test opens through `BENCHWORK_DB`. */
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase, type Db } from "@/db/client";

/**
 * A migrated SQLite file in a fresh temp folder, filled by `fill` and handed to the CLI through
 * `BENCHWORK_DB` (set before the file's tests, restored after them). Call it at the top level of a
 * test file; hooks registered before it (a model server, say) run first, so `fill` may use them.
 * @param prefix the temp folder's name prefix
 * @returns the folder (for output files) and the database file
 */
export function withCliDatabase(prefix: string, fill: (db: Db) => Promise<unknown> = async () => undefined): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.join(dir, "cli.db");
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env.BENCHWORK_DB;
    process.env.BENCHWORK_DB = file;
    const db = openDatabase(file);
    try {
      migrateDatabase(db);
      await fill(db);
    } finally {
      db.$client.close();
    }
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.BENCHWORK_DB;
    else process.env.BENCHWORK_DB = saved;
  });
  return { dir, file };
}
