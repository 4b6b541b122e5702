/**
 * Uploads waiting to be mapped and saved (Upload cases → Map and preview → Save). An upload holds
 * only the file; it becomes a dataset version on Save (and is deleted in the same transaction),
 * or is deleted after a day. A system holds a bounded number and size of them (the quota is the
 * caller's; {@link createUploadWithinQuota} checks and stores in one transaction).
 */
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../client";
import { isPostgres, rawRows } from "../dialect";
import { first } from "../rows";
import { transaction } from "../transaction";
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
  const [row] = await db
    .insert(datasetUploads)
    .values({
      systemId: u.systemId,
      fileName: u.fileName,
      fileBytes: Buffer.from(u.bytes.buffer, u.bytes.byteOffset, u.bytes.byteLength),
      sheet: u.sheet ?? null,
      createdAt: u.now ?? Date.now(),
    })
    .returning({ id: datasetUploads.id });
  return row.id;
}

/** What a system's unsaved uploads hold: how many, their bytes, when the oldest was made (ms). */
export interface UploadUsage {
  count: number;
  bytes: number;
  oldestAt: number | null;
}

/** Most unsaved uploads, and most bytes of them, one system may hold. */
export interface UploadQuota {
  maxCount: number;
  maxBytes: number;
}

async function usageOf(db: Db, systemId: string): Promise<UploadUsage> {
  const row = await first(
    db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        bytes: sql<number>`coalesce(sum(length(${datasetUploads.fileBytes})), 0)`.mapWith(Number),
        oldestAt: sql<number | null>`min(${datasetUploads.createdAt})`,
      })
      .from(datasetUploads)
      .where(eq(datasetUploads.systemId, systemId)),
  );
  return { count: row?.count ?? 0, bytes: row?.bytes ?? 0, oldestAt: row?.oldestAt ?? null };
}

/** What the system's unsaved uploads hold now. */
export async function uploadUsage(db: Db, systemId: string): Promise<UploadUsage> {
  return usageOf(db, systemId);
}

/**
 * Stores an upload unless the system's unsaved uploads would then be more than `quota.maxCount`
 * or hold more than `quota.maxBytes` bytes. Check and insert are one transaction, so uploads
 * arriving together cannot both squeeze past the quota.
 * @returns `{ ok: true, id }`, or `{ ok: false, usage }` (the usage before this upload; nothing stored)
 */
export async function createUploadWithinQuota(
  db: Db,
  u: { systemId: string; fileName: string; bytes: Uint8Array; sheet?: string | null; now?: number },
  quota: UploadQuota,
): Promise<{ ok: true; id: number } | { ok: false; usage: UploadUsage }> {
  return transaction(db, async (tx) => {
    // PostgreSQL (read committed) would let two transactions both read the usage before either
    // inserts: lock the system's row so they take turns, as SQLite's BEGIN IMMEDIATE makes them.
    if (isPostgres(tx)) await rawRows(tx, sql`SELECT 1 FROM systems WHERE id = ${u.systemId} FOR UPDATE`);
    const usage = await usageOf(tx, u.systemId);
    if (usage.count + 1 > quota.maxCount || usage.bytes + u.bytes.byteLength > quota.maxBytes) return { ok: false as const, usage };
    const [row] = await tx
      .insert(datasetUploads)
      .values({
        systemId: u.systemId,
        fileName: u.fileName,
        fileBytes: Buffer.from(u.bytes.buffer, u.bytes.byteOffset, u.bytes.byteLength),
        sheet: u.sheet ?? null,
        createdAt: u.now ?? Date.now(),
      })
      .returning({ id: datasetUploads.id });
    return { ok: true as const, id: row.id };
  });
}

/** An unsaved upload as listed (no bytes). `size` in bytes, `createdAt` in ms. */
export interface UploadSummary {
  id: number;
  fileName: string;
  sheet: string | null;
  size: number;
  createdAt: number;
}

/** A system's unsaved uploads, newest first. */
export async function listUploads(db: Db, systemId: string): Promise<UploadSummary[]> {
  return db
    .select({
      id: datasetUploads.id,
      fileName: datasetUploads.fileName,
      sheet: datasetUploads.sheet,
      size: sql<number>`length(${datasetUploads.fileBytes})`.mapWith(Number),
      createdAt: datasetUploads.createdAt,
    })
    .from(datasetUploads)
    .where(eq(datasetUploads.systemId, systemId))
    .orderBy(desc(datasetUploads.createdAt), desc(datasetUploads.id));
}

/** One upload of a system, or null (unknown, expired and deleted, or of another system). */
export async function getUpload(db: Db, systemId: string, id: number): Promise<DatasetUpload | null> {
  return (
    (await first(
      db
        .select()
        .from(datasetUploads)
        .where(and(eq(datasetUploads.id, id), eq(datasetUploads.systemId, systemId))),
    )) ?? null
  );
}

/** Deletes one upload (Cancel). Returns true when it existed. */
export async function deleteUpload(db: Db, systemId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(datasetUploads)
    .where(and(eq(datasetUploads.id, id), eq(datasetUploads.systemId, systemId)))
    .returning({ id: datasetUploads.id });
  return deleted.length > 0;
}

/**
 * Deletes uploads that are {@link UPLOAD_TTL_MS} old or older.
 * @param now the current time in ms
 * @returns how many were deleted
 */
export async function deleteStaleUploads(db: Db, now: number = Date.now()): Promise<number> {
  const deleted = await db
    .delete(datasetUploads)
    .where(lte(datasetUploads.createdAt, now - UPLOAD_TTL_MS))
    .returning({ id: datasetUploads.id });
  return deleted.length;
}
