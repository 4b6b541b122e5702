import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { describeStores } from "../test-support/stores";
import { createSystem } from "./systems";
import { createUploadWithinQuota, deleteUpload, getUpload, listUploads, uploadUsage } from "./dataset-uploads";

describeStores("dataset uploads", (store) => {
  let db: Db;
  beforeEach(async () => {
    db = store.db();
    await createSystem(db, { id: "acme", name: "Acme support" });
    await createSystem(db, { id: "other", name: "Other" });
  });

  const bytes = (n: number) => new Uint8Array(n).fill(7);
  const quota = { maxCount: 2, maxBytes: 10 };

  describe("createUploadWithinQuota", () => {
    it("stores uploads while the system's unsaved uploads stay within the count, and refuses the next without storing it", async () => {
      const a = await createUploadWithinQuota(db, { systemId: "acme", fileName: "a.csv", bytes: bytes(3), now: 1000 }, quota);
      const b = await createUploadWithinQuota(db, { systemId: "acme", fileName: "b.csv", bytes: bytes(3), now: 2000 }, quota);
      expect(a.ok && b.ok).toBe(true);
      const c = await createUploadWithinQuota(db, { systemId: "acme", fileName: "c.csv", bytes: bytes(1), now: 3000 }, quota);
      expect(c).toEqual({ ok: false, usage: { count: 2, bytes: 6, oldestAt: 1000 } });
      expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["b.csv", "a.csv"]);
      // Another system has its own quota.
      expect((await createUploadWithinQuota(db, { systemId: "other", fileName: "c.csv", bytes: bytes(1), now: 3000 }, quota)).ok).toBe(true);
      // Cancelling one frees its room.
      if (a.ok) await deleteUpload(db, "acme", a.id);
      const d = await createUploadWithinQuota(db, { systemId: "acme", fileName: "d.csv", bytes: bytes(1), now: 4000 }, quota);
      expect(d.ok).toBe(true);
      if (d.ok) expect([...(await getUpload(db, "acme", d.id))!.fileBytes]).toEqual([7]);
    });

    it("refuses an upload whose bytes would pass the system's byte quota", async () => {
      expect((await createUploadWithinQuota(db, { systemId: "acme", fileName: "a.csv", bytes: bytes(8), now: 1000 }, quota)).ok).toBe(true);
      expect(await createUploadWithinQuota(db, { systemId: "acme", fileName: "b.csv", bytes: bytes(3), now: 2000 }, quota)).toEqual({
        ok: false,
        usage: { count: 1, bytes: 8, oldestAt: 1000 },
      });
      expect((await createUploadWithinQuota(db, { systemId: "acme", fileName: "b.csv", bytes: bytes(2), now: 2000 }, quota)).ok).toBe(true);
      expect(await uploadUsage(db, "acme")).toEqual({ count: 2, bytes: 10, oldestAt: 1000 });
    });

    it("holds the quota when uploads arrive together: the check and the insert take turns", async () => {
      const all = await Promise.all(
        Array.from({ length: 6 }, (_, i) => createUploadWithinQuota(db, { systemId: "acme", fileName: `${i}.csv`, bytes: bytes(1), now: 1000 + i }, quota)),
      );
      expect(all.filter((r) => r.ok)).toHaveLength(2);
      expect(await uploadUsage(db, "acme")).toMatchObject({ count: 2, bytes: 2 });
    });

    it("lists a system's unsaved uploads newest first, without their bytes", async () => {
      await createUploadWithinQuota(db, { systemId: "acme", fileName: "a.xlsx", bytes: bytes(4), sheet: "Cases", now: 1000 }, quota);
      await createUploadWithinQuota(db, { systemId: "acme", fileName: "b.csv", bytes: bytes(2), now: 2000 }, quota);
      const list = await listUploads(db, "acme");
      expect(list.map(({ id: _id, ...rest }) => rest)).toEqual([
        { fileName: "b.csv", sheet: null, size: 2, createdAt: 2000 },
        { fileName: "a.xlsx", sheet: "Cases", size: 4, createdAt: 1000 },
      ]);
      expect(await listUploads(db, "other")).toEqual([]);
    });
  });
});
