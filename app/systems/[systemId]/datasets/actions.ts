"use server";

/**
 * Server actions of Datasets. Each re-validates its input with zod and everything else on the
 * server (the file is parsed again from the stored upload; the client's preview is never trusted),
 * calls server/ and db/queries, and returns an ActionResult.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { deleteUpload, getUpload } from "@/db/queries/dataset-uploads";
import { getDatasetVersionFile, adoptDatasetVersion } from "@/db/queries/datasets";
import { asDatasetError, DatasetError } from "@/lib/datasets/errors";
import { saveDatasetSchema, useDatasetSchema } from "@/lib/datasets/schemas";
import type { Corrections } from "@/lib/datasets/types";
import { failure, runAction, type ActionResult } from "@/lib/shell/result";
import { importDataset } from "@/server/datasets";
import { importLimitsFromEnv } from "@/server/import-limits";
import { uploadQuotaFromEnv } from "@/server/upload-limits";
import { storeUpload } from "@/server/uploads";
import { currentActor } from "@/server/auth/actor";
import { guardedAction } from "@/server/auth/guard";

const datasetsPath = (systemId: string) => `/systems/${systemId}/datasets`;

/** Save: parses the upload again, re-validates the mapping, corrections and exclusions, and stores version N. */
export const saveDatasetAction = guardedAction(
  "editor",
  async (input: unknown): Promise<ActionResult<{ datasetId: number; version: number; href: string; blockedRows: number }>> => {
    return runAction(saveDatasetSchema, input, async (v) => {
      const db = getDb();
      const upload = await getUpload(db, v.systemId, v.uploadId);
      if (!upload)
        throw new DatasetError("upload_not_found", "This upload was already saved or has expired (uploads are kept for a day). Upload the file again.");
      try {
        const { saved } = await importDataset(db, {
          systemId: v.systemId,
          name: v.name,
          fileName: upload.fileName,
          bytes: new Uint8Array(upload.fileBytes),
          sheet: v.sheet || undefined,
          headerRow: v.headerRow,
          mapping: v.mapping,
          corrections: v.corrections as Corrections,
          excludedRows: v.excludedRows,
          redaction: v.redaction,
          checks: v.checks,
          uploadId: upload.id,
          limits: importLimitsFromEnv(),
          author: await currentActor(),
        });
        revalidatePath(datasetsPath(v.systemId), "layout");
        return {
          datasetId: saved.datasetId,
          version: saved.version,
          href: `${datasetsPath(v.systemId)}/${saved.datasetId}/versions/${saved.version}`,
          blockedRows: saved.blockedRows.length,
        };
      } catch (e) {
        throw asDatasetError(e);
      }
    });
  },
);

/** Use a dataset: "Add golden cases" of one version to one prompt's library. */
export const adoptDatasetAction = guardedAction(
  "editor",
  async (
    input: unknown,
  ): Promise<
    ActionResult<{ added: number; skipped: number; revised: number; unchanged: number; promptName: string; blockedRows: number[]; libraryHref: string }>
  > => {
    return runAction(useDatasetSchema, input, async (v) => {
      const r = await adoptDatasetVersion(getDb(), {
        systemId: v.systemId,
        datasetId: v.datasetId,
        version: v.version,
        promptId: v.promptId,
        onCollision: v.onCollision,
        author: await currentActor(),
      });
      revalidatePath(`/systems/${v.systemId}/library`, "layout");
      revalidatePath(datasetsPath(v.systemId), "layout");
      revalidatePath("/");
      return {
        added: r.added,
        skipped: r.skipped,
        revised: r.revised,
        unchanged: r.unchanged,
        promptName: r.promptName,
        blockedRows: r.blockedRows,
        libraryHref: `/systems/${v.systemId}/library?source=dataset&prompt=${encodeURIComponent(r.promptName)}`,
      };
    });
  },
);

const versionRef = z.object({ systemId: z.string().min(1), datasetId: z.coerce.number().int().positive(), version: z.coerce.number().int().positive() });

/**
 * Correct in a new version: starts an upload from a version's original file and opens Map and
 * preview with that version's mapping, corrections and exclusions.
 */
export const correctVersionAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<never>> => {
  const parsed = versionRef.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "validation", message: "Unknown dataset version." } };
  const { systemId, datasetId, version } = parsed.data;
  const db = getDb();
  const file = await getDatasetVersionFile(db, systemId, datasetId, version);
  if (!file) return { ok: false, error: { code: "not_found", message: `Dataset #${datasetId} has no version ${version}.` } };
  let uploadId: number;
  try {
    uploadId = await storeUpload(
      db,
      { systemId, fileName: file.fileName, bytes: new Uint8Array(file.fileBytes), sheet: file.sheet },
      uploadQuotaFromEnv(),
      Date.now(),
    );
  } catch (e) {
    return failure(e); // over the system's quota of unsaved uploads
  }
  const q = new URLSearchParams({ from: `${datasetId}:${version}` });
  if (file.sheet) q.set("sheet", file.sheet);
  // The version's header row, also when it was the first row (so detection does not move it).
  q.set("header", String(file.headerRow));
  redirect(`${datasetsPath(systemId)}/upload/${uploadId}?${q}`);
});

/** Cancel on Map and preview: deletes the upload (nothing was stored as a dataset) and goes back. */
export const discardUploadAction = guardedAction("editor", async (input: unknown): Promise<ActionResult<never>> => {
  const parsed = z.object({ systemId: z.string().min(1), uploadId: z.coerce.number().int().positive() }).safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "validation", message: "Unknown upload." } };
  await deleteUpload(getDb(), parsed.data.systemId, parsed.data.uploadId);
  redirect(datasetsPath(parsed.data.systemId));
});
