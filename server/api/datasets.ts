/**
 * `dataset import` on the server side, shared by the CLI on a database file and the HTTP API
 * (`POST /api/v1/datasets/import`, issue 19): the target (system, `--use` prompt) by name with the
 * CLI's messages, then the same import as the web page's Save, refusing blocked rows.
 */
import type { Db } from "@/db/client";
import type { SavedVersion, UseResult } from "@/db/queries/datasets";
import { getSystem, listPrompts } from "@/db/queries/systems";
import type { DatasetImportBody } from "@/lib/api/schemas";
import type { Author } from "@/lib/audit/author";
import type { CollisionChoice } from "@/lib/datasets/collisions";
import { LibraryError } from "@/lib/library/errors";
import { importDataset } from "@/server/datasets";
import type { ImportLimits } from "@/lib/import/limits";

/**
 * The system must exist and `use` must name one of its prompts.
 * @param where names the library in messages (the database file, or "this server")
 * @returns the `use` target as importDataset takes it
 * @throws LibraryError `validation` with the option in the message and as the field (`system`, `use`)
 */
export async function resolveImportTarget(
  db: Db,
  o: { system: string; use?: string; onCollision?: CollisionChoice },
  where: string,
): Promise<{ promptId: number; onCollision?: CollisionChoice } | undefined> {
  if (!(await getSystem(db, o.system))) {
    const msg = `--system: no system "${o.system}" in ${where}`;
    throw new LibraryError("validation", msg, { system: msg });
  }
  if (o.use === undefined) return undefined;
  const prompts = await listPrompts(db, o.system);
  const p = prompts.find((x) => x.name === o.use);
  if (!p) {
    const msg = `--use: system "${o.system}" has no prompt "${o.use}" (its prompts: ${prompts.map((x) => x.name).join(", ") || "none"}).`;
    throw new LibraryError("validation", msg, { use: msg });
  }
  return { promptId: p.id, ...(o.onCollision ? { onCollision: o.onCollision } : {}) };
}

/**
 * Imports the file of an API request as a new dataset version, for `author`.
 * @returns the saved version, and what `use` added
 * @throws what {@link resolveImportTarget} and importDataset throw (DatasetError `blocked_rows` with
 *   the problems, `needs_sheet`, `invalid_mapping`, …; ImportError for a refused file); nothing is stored then
 */
export async function importForApi(db: Db, body: DatasetImportBody, author: Author, limits: ImportLimits): Promise<{ saved: SavedVersion; used?: UseResult }> {
  const use = await resolveImportTarget(db, body, "this server");
  const { saved, used } = await importDataset(db, {
    systemId: body.system,
    name: body.name,
    fileName: body.fileName,
    bytes: new Uint8Array(Buffer.from(body.fileBase64, "base64")),
    sheet: body.sheet,
    headerRow: body.headerRow,
    mapping: body.mapping?.mapping,
    corrections: body.mapping?.corrections,
    excludedRows: body.mapping?.excludedRows,
    redaction: body.mapping?.redaction,
    limits,
    refuseBlockedRows: true,
    checks: body.checks,
    use,
    author,
  });
  return { saved, ...(used ? { used } : {}) };
}
