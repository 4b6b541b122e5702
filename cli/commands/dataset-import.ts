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
 * Exit 0 saved; 1 the file has problems that block import (printed); 2 usage error (unknown
 * system, missing file, bad mapping JSON, unknown sheet, bad name).
 */
import path from "node:path";
import { z } from "zod";
import { migrateDatabase, openDatabase, databasePath } from "@/db/client";
import { getSystem, listPrompts } from "@/db/queries/systems";
import { DATASET_CHECK_LABEL, parseChecksOption, type DatasetCheck } from "@/lib/datasets/checks";
import { COLLISION_CHOICES, type CollisionChoice } from "@/lib/datasets/collisions";
import { DatasetError } from "@/lib/datasets/errors";
import { mappingFileSchema } from "@/lib/datasets/schemas";
import { PII_LABEL, PII_TYPES } from "@/lib/import/redact/detectors";
import { LibraryError } from "@/lib/library/errors";
import { importDataset } from "@/server/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";
import { CliError, readJsonFile, usage, type Io } from "../io";
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
  const db = openDatabase();
  try {
    migrateDatabase(db);
    if (!(await getSystem(db, o.system))) throw usage(`--system: no system "${o.system}" in ${databasePath()}`);
    let use: { promptId: number; onCollision?: CollisionChoice } | undefined;
    if (o.use !== undefined) {
      const prompts = await listPrompts(db, o.system);
      const p = prompts.find((x) => x.name === o.use);
      if (!p) throw usage(`--use: system "${o.system}" has no prompt "${o.use}" (its prompts: ${prompts.map((x) => x.name).join(", ") || "none"}).`);
      use = { promptId: p.id, ...(o.onCollision ? { onCollision: o.onCollision as CollisionChoice } : {}) };
    }
    let result;
    try {
      result = await importDataset(db, {
        systemId: o.system,
        name: o.name,
        fileName: path.basename(file),
        bytes,
        sheet: o.sheet,
        headerRow,
        mapping: choices?.mapping,
        corrections: choices?.corrections,
        excludedRows: choices?.excludedRows,
        redaction: choices?.redaction,
        limits: importLimitsFromEnv(),
        refuseBlockedRows: true,
        checks,
        use,
      });
    } catch (e) {
      if (e instanceof DatasetError) {
        if (e.code === "needs_sheet") throw usage(`${e.message} Pass --sheet NAME.`);
        if (e.code === "invalid_corrections" || e.code === "invalid_redaction") throw usage(`mapping ${o.mapping}: ${e.message}`);
        if (e.code === "invalid_mapping") {
          if (o.mapping) throw usage(`mapping ${o.mapping}: ${e.message}`);
          throw new CliError(`${e.message} Write a mapping file and pass it with --mapping (see dataset inspect --json, suggestedMapping).`, 1);
        }
        if (e.code === "blocked_rows") {
          printProblems(e.problems, io.err);
          throw new CliError(`${e.message} Nothing was saved.`, 1);
        }
      }
      if (e instanceof LibraryError && e.code === "conflict" && /already used in this prompt's library/.test(e.message)) {
        throw usage(`${e.message} Pass --on-collision skip|prefix|revise. Nothing was saved.`);
      }
      if (e instanceof LibraryError) throw usage(`${e.message}${use ? " Nothing was saved." : ""}`);
      throw fileRefusal(e);
    }
    const { saved, used } = result;
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
    io.out(`Saved dataset "${saved.name}" version ${saved.version} (dataset #${saved.datasetId}): ${saved.rowCount} row(s)${excluded}.`);
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
  } finally {
    db.$client.close();
  }
}
