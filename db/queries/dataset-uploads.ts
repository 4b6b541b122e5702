/**
 * Uploads waiting to be mapped and saved (Upload cases → Map and preview → Save). An upload holds
 * only the file; it becomes a dataset version on Save (and is deleted in the same transaction),
 * or is deleted after a day.
 */
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../client";
import { datasetUploads } from "../schema";

/** How long an unsaved upload is kept, in ms (a day). */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** A stored upload. */
export interface DatasetUpload {
  id: number;
  systemId: string;
  fileName: string;
  fileBytes: Buffer;
  sheet: string | null;
  createdAt: number;
}

/**
 * Stores an uploaded file (already checked by the parser).
 * @returns the upload id
 */
export async function createUpload(db: Db, u: { systemId: string; fileName: string; bytes: Uint8Array; sheet?: string | null; now?: number }): Promise<number> {
  const row = db
    .insert(datasetUploads)
    .values({ systemId: u.systemId, fileName: u.fileName, fileBytes: Buffer.from(u.bytes.buffer, u.bytes.byteOffset, u.bytes.byteLength), sheet: u.sheet ?? null, createdAt: u.now ?? Date.now() })
    .returning({ id: datasetUploads.id })
    .get();
  return row.id;
}

/** One upload of a system, or null (unknown, expired and deleted, or of another system). */
export async function getUpload(db: Db, systemId: string, id: number): Promise<DatasetUpload | null> {
  return db.select().from(datasetUploads).where(and(eq(datasetUploads.id, id), eq(datasetUploads.systemId, systemId))).get() ?? null;
}

/** Deletes one upload (Cancel). Returns true when it existed. */
export async function deleteUpload(db: Db, systemId: string, id: number): Promise<boolean> {
  return db.delete(datasetUploads).where(and(eq(datasetUploads.id, id), eq(datasetUploads.systemId, systemId))).run().changes > 0;
}

/**
 * Deletes uploads older than {@link UPLOAD_TTL_MS}.
 * @param now the current time in ms
 * @returns how many were deleted
 */
export async function deleteStaleUploads(db: Db, now: number = Date.now()): Promise<number> {
  return db.delete(datasetUploads).where(lt(datasetUploads.createdAt, now - UPLOAD_TTL_MS)).run().changes;
}
