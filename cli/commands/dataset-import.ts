/**
 * `benchwork dataset import FILE --system ID --name NAME [--mapping MAPPING.json] [--sheet NAME] [--header-row N]
 *   [--use PROMPT] [--checks exact|contains|answer_bank|gsm8k|regex|json|expected_tool_calls|none] [--on-collision skip|prefix|revise] [--json]`
 * Saves a dataset version on BENCHWORK_DB (default data/benchwork.db, migrated first) with the same
 * code as the web page's Save (server/datasets.ts). MAPPING.json is a list of column assignments
 * (`[{ "column": "question", "role": "input" }, …]`, columns left out are extra) or
 * `{ "mapping": [...], "corrections": { "2": { "answer": "…" } }, "excludedRows": [5],
 * "redaction": { "enabled": true, "keep": ["*@northwind.example"] } }` (redaction defaults to the
 * dataset's latest version's settings);
 * without it, the suggested mapping is used (see `dataset inspect`).
 * Rows missing their input or expected result block the import here (there is no preview to fix
 * them in): correct or exclude them in the mapping file.
 * `--checks` names the checks every case of the dataset gets (comma-separated; default: the ones
 * proposed for the mapping, e.g. exact for an expected result with recorded outputs). `--use PROMPT`
 * also adds the version's golden cases to PROMPT's library in the same transaction; case IDs that
 * PROMPT's library already uses are a usage error naming the choices unless `--on-collision` says
 * what to do (skip the rows, prefix them with the dataset's name, or revise the cases made from an
 * earlier version of the same dataset). Nothing is saved when the use is refused.
 * The success line names where the version went (the SQLite file, `host:port/db (PostgreSQL)` or
 * the server). Exit 0 saved; 1 the file has problems that block import (printed); 2 usage error (unknown
 * system, missing file, bad mapping JSON, unknown sheet, bad name).
 * With `--server URL` (issue 19) the file is read and checked here and saved on that team server
 * through its HTTP API (token from BENCHWORK_TOKEN); same output and exit codes; a refused token exits 2.
 */
import path from "node:path";
import { z } from "zod";
import { openMigratedStore } from "@/db/open-store";
import type { SavedVersion, UseResult } from "@/db/queries/datasets";
import { DATASET_CHECK_LABEL, parseChecksOption, type DatasetCheck } from "@/lib/datasets/checks";
import { COLLISION_CHOICES, type CollisionChoice } from "@/lib/datasets/collisions";
import { DatasetError } from "@/lib/datasets/errors";
import { mappingFileSchema } from "@/lib/datasets/schemas";
import { PII_LABEL, PII_TYPES } from "@/lib/import/redact/detectors";
import { ImportError, type ImportErrorCode } from "@/lib/import/errors";
import { LibraryError, type LibraryErrorCode } from "@/lib/library/errors";
import { importDataset } from "@/server/datasets";
import { resolveImportTarget } from "@/server/api/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";
import { LOCAL_AUTHOR } from "../local-author";
import { CliError, readJsonFile, usage, type Io } from "../io";
import { connect, RemoteError, remoteRefusal } from "../remote";
import { fileRefusal, headerRowOption, readDataFile } from "./dataset-inspect";
import { printProblems } from "./dataset-output";

/** Options of `dataset import`. */
export interface ImportCliOptions {
  system: string;
  name: string;
  mapping?: string;
  sheet?: string;
  headerRow?: string;
  use?: string;
  checks?: string;
  onCollision?: string;
  json?: boolean;
  /** `--server URL`: import on a team server through its HTTP API (token from BENCHWORK_TOKEN). */
  server?: string;
}

type MappingFile = z.output<typeof mappingFileSchema>;

function readMapping(file: string): MappingFile {
  const parsed = mappingFileSchema.safeParse(readJsonFile(file, "mapping"));
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw usage(
      `mapping ${file}: ${i.path.length ? i.path.join(".") + ": " : ""}${i.message}. Expected a list of { "column", "role", "candidate"?, "variable"? } or { "mapping": [...], "corrections"?, "excludedRows"?, "redaction"? }.`,
    );
  }
  return parsed.data;
}

/** What the command checked locally, before any import. */
interface ImportInput {
  file: string;
  bytes: Uint8Array;
  choices: MappingFile | undefined;
  headerRow: number | undefined;
  checks: DatasetCheck[] | undefined;
}

/** The words of a refused import (the same for a database file and a server); anything unknown is returned. */
function importRefusal(e: unknown, o: ImportCliOptions, io: Io): unknown {
  if (e instanceof DatasetError) {
    if (e.code === "needs_sheet") return usage(`${e.message} Pass --sheet NAME.`);
    if (e.code === "invalid_corrections" || e.code === "invalid_redaction") return usage(`mapping ${o.mapping}: ${e.message}`);
    if (e.code === "invalid_mapping") {
      if (o.mapping) return usage(`mapping ${o.mapping}: ${e.message}`);
      return new CliError(`${e.message} Write a mapping file and pass it with --mapping (see dataset inspect --json, suggestedMapping).`, 1);
    }
    if (e.code === "blocked_rows") {
      printProblems(e.problems, io.err);
      return new CliError(`${e.message} Nothing was saved.`, 1);
    }
  }
  if (e instanceof LibraryError && e.code === "conflict" && /already used in this prompt's library/.test(e.message)) {
    return usage(`${e.message} Pass --on-collision skip|prefix|revise. Nothing was saved.`);
  }
  if (e instanceof LibraryError) return usage(`${e.message}${o.use !== undefined ? " Nothing was saved." : ""}`);
  return fileRefusal(e);
}

/** What an import saved, and where (the store's or the server's name, for the success line). */
interface Imported {
  saved: SavedVersion;
  used?: UseResult;
  where: string;
}

/** Imports on the configured store (BENCHWORK_DATABASE_URL or BENCHWORK_DB). */
async function importLocal(i: ImportInput, o: ImportCliOptions, io: Io): Promise<Imported> {
  const store = await openMigratedStore();
  const db = store.db;
  try {
    let use: { promptId: number; onCollision?: CollisionChoice } | undefined;
    try {
      use = await resolveImportTarget(db, { system: o.system, use: o.use, onCollision: o.onCollision as CollisionChoice | undefined }, store.where);
    } catch (e) {
      if (e instanceof LibraryError) throw usage(e.message);
      throw e;
    }
    try {
      const done = await importDataset(db, {
        systemId: o.system,
        name: o.name,
        fileName: path.basename(i.file),
        bytes: i.bytes,
        sheet: o.sheet,
        headerRow: i.headerRow,
        mapping: i.choices?.mapping,
        corrections: i.choices?.corrections,
        excludedRows: i.choices?.excludedRows,
        redaction: i.choices?.redaction,
        limits: importLimitsFromEnv(),
        refuseBlockedRows: true,
        checks: i.checks,
        use,
        author: LOCAL_AUTHOR,
      });
      return { ...done, where: store.where };
    } catch (e) {
      throw importRefusal(e, o, io);
    }
  } finally {
    await store.close();
  }
}

const LIBRARY_CODES = [
  "validation",
  "duplicate_case_id",
  "not_found",
  "removed",
  "conflict",
  "not_allowed",
  "unchanged",
] as const satisfies readonly LibraryErrorCode[];

/** The error a server answered with, as the error class the import would have thrown here. */
function localErrorOf(e: RemoteError): unknown {
  const { code, message, problems } = e.error;
  if (e.status >= 500) return e;
  if (code.startsWith("import.")) return new ImportError(code.slice("import.".length) as ImportErrorCode, "", message);
  if ((LIBRARY_CODES as readonly string[]).includes(code)) return new LibraryError(code as LibraryErrorCode, message);
  return new DatasetError(code, message, (problems ?? []) as DatasetError["problems"]);
}

/** Imports on a team server. */
async function importRemote(i: ImportInput, o: ImportCliOptions & { server: string }, io: Io): Promise<Imported> {
  const remote = connect(o.server, process.env.BENCHWORK_TOKEN || undefined);
  try {
    const done = await remote.call<{ saved: SavedVersion; used?: UseResult }>("POST", "api/v1/datasets/import", {
      system: o.system,
      name: o.name,
      fileName: path.basename(i.file),
      fileBase64: Buffer.from(i.bytes).toString("base64"),
      ...(o.sheet !== undefined ? { sheet: o.sheet } : {}),
      ...(i.headerRow !== undefined ? { headerRow: i.headerRow } : {}),
      ...(i.choices ? { mapping: i.choices } : {}),
      ...(i.checks ? { checks: i.checks } : {}),
      ...(o.use !== undefined ? { use: o.use } : {}),
      ...(o.onCollision !== undefined ? { onCollision: o.onCollision } : {}),
    });
    return { ...done, where: o.server };
  } catch (e) {
    if (!(e instanceof RemoteError)) throw e;
    // The target's own refusals already name the option (--system, --use).
    if (e.status === 400 && /^--(system|use):/.test(e.error.message)) throw usage(e.error.message);
    const local = localErrorOf(e);
    throw local === e ? remoteRefusal(e) : importRefusal(local, o, io);
  }
}

/** Runs the command; returns the exit code. */
export async function datasetImportCommand(file: string, o: ImportCliOptions, io: Io): Promise<number> {
  const bytes = readDataFile(file);
  const choices = o.mapping ? readMapping(o.mapping) : undefined;
  const headerRow = headerRowOption(o.headerRow);
  let checks: DatasetCheck[] | undefined;
  if (o.checks !== undefined) {
    const parsed = parseChecksOption(o.checks);
    if (!parsed.ok) throw usage(parsed.message);
    checks = parsed.checks;
  }
  if (o.onCollision !== undefined && !(COLLISION_CHOICES as readonly string[]).includes(o.onCollision))
    throw usage(`--on-collision must be skip, prefix or revise (got "${o.onCollision}").`);
  if (o.onCollision !== undefined && o.use === undefined) throw usage("--on-collision needs --use PROMPT.");
  const input: ImportInput = { file, bytes, choices, headerRow, checks };
  const { saved, used, where } = o.server !== undefined ? await importRemote(input, { ...o, server: o.server }, io) : await importLocal(input, o, io);
  if (o.json) {
    const out: Record<string, unknown> = {
      datasetId: saved.datasetId,
      name: saved.name,
      version: saved.version,
      rowCount: saved.rowCount,
      excludedRows: saved.excludedRows,
      redaction: saved.redaction,
      problems: saved.problems,
      checks: saved.checks,
    };
    if (used)
      out.used = {
        prompt: used.promptName,
        added: used.added,
        skipped: used.skipped,
        revised: used.revised,
        unchanged: used.unchanged,
        caseKeys: used.caseKeys,
      };
    io.out(JSON.stringify(out, null, 2));
    return 0;
  }
  const redacted = PII_TYPES.filter((t) => saved.redaction.totals[t] > 0).map((t) => `${saved.redaction.totals[t]} ${PII_LABEL[t]}`);
  const excluded = saved.excludedRows.length ? `, ${saved.excludedRows.length} excluded` : "";
  io.out(`Saved dataset "${saved.name}" version ${saved.version} (dataset #${saved.datasetId}) in ${where}: ${saved.rowCount} row(s)${excluded}.`);
  const settings = saved.redaction.settings;
  if (settings && !settings.enabled) io.out("Redaction: off (nothing was replaced).");
  else io.out(redacted.length ? `Redacted: ${redacted.join(", ")}.` : "Redacted: nothing (no personal data found).");
  const kept = saved.redaction.kept ?? [];
  if (kept.length > 0) io.out(`Kept as written: ${kept.map((k) => `${k.entry} (${k.count})`).join(", ")}.`);
  io.out(
    saved.checks.length
      ? `Checks: ${saved.checks.map((c) => DATASET_CHECK_LABEL[c.kind]).join("; ")}.`
      : "Checks: none (cases get the prompt's default checks, or none).",
  );
  if (used) {
    const more = [
      used.skipped ? `${used.skipped} row(s) skipped (case ID taken)` : "",
      used.revised ? `${used.revised} existing case(s) got a new revision` : "",
      used.unchanged ? `${used.unchanged} existing case(s) unchanged` : "",
    ].filter(Boolean);
    io.out(`Added ${used.added} golden case(s) to ${used.promptName}${more.length ? `; ${more.join("; ")}` : ""}.`);
  }
  printProblems(saved.problems, io.out);
  return 0;
}
