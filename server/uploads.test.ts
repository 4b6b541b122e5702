import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { makeTestDb } from "@/db/testing";
import { listUploads, UPLOAD_TTL_MS } from "@/db/queries/dataset-uploads";
import { UploadGate } from "@/lib/datasets/upload-gate";
import { DatasetError } from "@/lib/datasets/errors";
import { sharedStringsBomb } from "@/lib/import/fixtures/hostile-xlsx";
import { resolveLimits } from "@/lib/import/limits";
import { receiveUpload, storeUpload, type UploadDeps } from "./uploads";
import { uploadGateLimitsFromEnv, uploadQuotaFromEnv } from "./upload-limits";

const utf8 = (s: string) => new TextEncoder().encode(s);
const CSV = utf8("question,answer\nWhat is 2+2?,4\nCapital of France?,Paris\n");

/** A request body the test ends by hand (an upload still arriving holds its slot). */
function slowBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    body,
    finish(bytes: Uint8Array) {
      controller.enqueue(bytes);
      controller.close();
    },
  };
}

function whole(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

let db: Db;
let t: number;
const now = () => t;
function deps(more: Partial<UploadDeps> = {}): UploadDeps {
  return {
    gate: new UploadGate({ maxInFlight: 2, perMinute: 30 }, now),
    limits: resolveLimits(),
    quota: { maxCount: 20, maxBytes: 64 * 1024 * 1024 },
    now,
    ...more,
  };
}
const upload = (fileName: string, bytes: Uint8Array) => ({ systemId: "acme", fileName, declaredLength: bytes.byteLength, body: whole(bytes) });

beforeEach(async () => {
  ({ db } = await makeTestDb());
  t = 100 * UPLOAD_TTL_MS;
});

describe("receiveUpload", () => {
  it("stores an accepted file and answers what the importer saw", async () => {
    const r = await receiveUpload(db, upload("faq.csv", CSV), deps());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data).toMatchObject({ fileName: "faq.csv", format: "csv", columns: ["question", "answer"], rowCount: 2, errorCount: 0 });
    expect(r.data.href).toBe(`/systems/acme/datasets/upload/${r.data.uploadId}`);
    expect((await listUploads(db, "acme")).map((u) => [u.id, u.fileName, u.size])).toEqual([[r.data.uploadId, "faq.csv", CSV.byteLength]]);
  });

  it("refuses an upload at once with 503 and Retry-After while the allowed ones are still arriving; it is admitted once one ends", async () => {
    const d = deps({ gate: new UploadGate({ maxInFlight: 1, perMinute: 30 }, now) });
    const first = slowBody();
    const pending = receiveUpload(db, { systemId: "acme", fileName: "a.csv", declaredLength: null, body: first.body }, d);
    expect(d.gate.inFlight).toBe(1);
    const refused = await receiveUpload(db, upload("b.csv", CSV), d);
    expect(refused).toEqual({
      ok: false,
      status: 503,
      code: "busy",
      retryAfterSeconds: 5,
      message: "The server is already reading 1 upload (at most 1 at once). Nothing was stored; upload the file again in a few seconds.",
    });
    first.finish(CSV);
    expect((await pending).ok).toBe(true);
    expect(d.gate.inFlight).toBe(0);
    expect((await receiveUpload(db, upload("b.csv", CSV), d)).ok).toBe(true);
    expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["b.csv", "a.csv"]);
  });

  it("refuses with 408 an upload whose body does not arrive in time, and frees its slot", async () => {
    const d = deps({ gate: new UploadGate({ maxInFlight: 1, perMinute: 30 }, now), bodyTimeoutMs: 1 });
    const stalled = slowBody(); // never finished
    expect(await receiveUpload(db, { systemId: "acme", fileName: "slow.csv", declaredLength: null, body: stalled.body }, d)).toEqual({
      ok: false,
      status: 408,
      code: "body_timeout",
      message: "slow.csv did not arrive within 1 s, so the upload was stopped. Nothing was stored; check the connection and upload the file again.",
    });
    expect(d.gate.inFlight).toBe(0);
    expect((await receiveUpload(db, upload("faq.csv", CSV), d)).ok).toBe(true);
  });

  it("refuses uploads past the per-minute limit with 429 until the minute has passed", async () => {
    const d = deps({ gate: new UploadGate({ maxInFlight: 2, perMinute: 2 }, now) });
    expect((await receiveUpload(db, upload("a.csv", CSV), d)).ok).toBe(true);
    t += 20_000;
    expect((await receiveUpload(db, upload("b.csv", CSV), d)).ok).toBe(true);
    t += 1_000;
    expect(await receiveUpload(db, upload("c.csv", CSV), d)).toMatchObject({ ok: false, status: 429, code: "rate_limited", retryAfterSeconds: 39 });
    t += 39_000;
    expect((await receiveUpload(db, upload("c.csv", CSV), d)).ok).toBe(true);
  });

  it("refuses a file whose declared length is over the limit without taking a slot or a place in the minute", async () => {
    const d = deps({ gate: new UploadGate({ maxInFlight: 1, perMinute: 1 }, now), limits: resolveLimits({ maxBytes: CSV.byteLength }) });
    const big = utf8("question,answer\n" + "x,y\n".repeat(20));
    expect(await receiveUpload(db, upload("big.csv", big), d)).toMatchObject({
      ok: false,
      status: 413,
      code: "too_large",
      message: `big.csv is ${big.byteLength} bytes (${big.byteLength} bytes); the limit is ${CSV.byteLength} bytes (${CSV.byteLength} bytes). Split the file or remove rows, then upload it again.`,
    });
    expect(d.gate.inFlight).toBe(0);
    expect((await receiveUpload(db, upload("faq.csv", CSV), d)).ok).toBe(true);
    expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["faq.csv"]);
  });

  it("refuses a body longer than the limit when no length was declared, and frees its slot", async () => {
    const d = deps({ limits: resolveLimits({ maxBytes: 10 }) });
    expect(await receiveUpload(db, { ...upload("big.csv", CSV), declaredLength: null }, d)).toMatchObject({ ok: false, status: 413, code: "too_large" });
    expect(d.gate.inFlight).toBe(0);
    expect(await listUploads(db, "acme")).toEqual([]);
  });

  it("refuses the 2.2 MB workbook with 62 MB of shared strings with 422 naming the part, stores nothing and frees its slot", async () => {
    const d = deps();
    const r = await receiveUpload(db, upload("strings.xlsx", sharedStringsBomb(62 * 1024 * 1024)), d);
    expect(r).toMatchObject({ ok: false, status: 422, code: "part_too_large" });
    expect(!r.ok && r.message).toMatch(/^strings\.xlsx: its shared strings \(part xl\/sharedStrings\.xml\) unpack to 62\.0 MB; the limit is 16 MB per part\./);
    expect(d.gate.inFlight).toBe(0);
    expect(await listUploads(db, "acme")).toEqual([]);
  });

  it("refuses an upload over the system's quota of unsaved uploads with 409, stores nothing; an expired upload makes room", async () => {
    const d = deps({ quota: { maxCount: 2, maxBytes: 64 * 1024 * 1024 } });
    expect((await receiveUpload(db, upload("a.csv", CSV), d)).ok).toBe(true);
    t += 60 * 60 * 1000;
    expect((await receiveUpload(db, upload("b.csv", CSV), d)).ok).toBe(true);
    t += 60 * 60 * 1000;
    const r = await receiveUpload(db, upload("c.csv", CSV), d);
    expect(r).toEqual({
      ok: false,
      status: 409,
      code: "upload_quota",
      message:
        'System "Acme support" already holds 2 unsaved uploads; the limit is 2 per system. Nothing was stored. Save or cancel one of them (listed on Upload cases), or wait: unsaved uploads are deleted a day after upload, the oldest in 22 h.',
    });
    expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["b.csv", "a.csv"]);
    t += 22 * 60 * 60 * 1000; // a.csv is now a day old
    expect((await receiveUpload(db, upload("c.csv", CSV), d)).ok).toBe(true);
    expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["c.csv", "b.csv"]);
  });
});

describe("storeUpload", () => {
  it("refuses bytes over the system's byte quota, naming both sizes", async () => {
    const quota = { maxCount: 20, maxBytes: 3 * 1024 * 1024 };
    await storeUpload(db, { systemId: "acme", fileName: "a.csv", bytes: new Uint8Array(2 * 1024 * 1024) }, quota, t);
    const refusal = await storeUpload(db, { systemId: "acme", fileName: "b.csv", bytes: new Uint8Array(1536 * 1024) }, quota, t + 90 * 60 * 1000).catch(
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(DatasetError);
    expect(refusal).toMatchObject({
      code: "upload_quota",
      message:
        'The unsaved uploads of system "Acme support" hold 2 MB; with b.csv (1.5 MB) they would pass the limit of 3 MB per system. Nothing was stored. Save or cancel one of them (listed on Upload cases), or wait: unsaved uploads are deleted a day after upload, the oldest in 22 h 30 min.',
    });
    expect((await listUploads(db, "acme")).map((u) => u.fileName)).toEqual(["a.csv"]);
  });
});

describe("upload limits from the environment", () => {
  it("defaults to 2 at once, 30 a minute, 20 unsaved uploads and 64 MB per system, and takes valid overrides", () => {
    expect(uploadGateLimitsFromEnv({})).toEqual({ maxInFlight: 2, perMinute: 30 });
    expect(uploadQuotaFromEnv({})).toEqual({ maxCount: 20, maxBytes: 64 * 1024 * 1024 });
    expect(uploadGateLimitsFromEnv({ BENCHWORK_UPLOADS_AT_ONCE: "1", BENCHWORK_UPLOADS_PER_MINUTE: "5" })).toEqual({ maxInFlight: 1, perMinute: 5 });
    expect(uploadQuotaFromEnv({ BENCHWORK_UPLOADS_MAX_UNSAVED: "3", BENCHWORK_UPLOADS_MAX_UNSAVED_BYTES: "1000" })).toEqual({ maxCount: 3, maxBytes: 1000 });
  });
});
