import { describe, expect, it } from "vitest";
import { readBodyWithLimit } from "./read-body";
import { downloadName, exportFormat, fileResponse } from "./download";

function stream(chunks: number[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const n of chunks) c.enqueue(new Uint8Array(n).fill(65));
      c.close();
    },
  });
}

describe("readBodyWithLimit", () => {
  it("returns the bytes up to the limit and null past it", async () => {
    expect((await readBodyWithLimit(stream([3, 4]), 7))!.byteLength).toBe(7);
    expect(await readBodyWithLimit(stream([3, 4, 1]), 7)).toBeNull();
    expect((await readBodyWithLimit(null, 7))!.byteLength).toBe(0);
  });
});

describe("readBodyWithLimit with a deadline", () => {
  it("stops waiting for a body that stalls once the signal aborts, and cancels it", async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new Uint8Array(3)),
      cancel: () => void (cancelled = true),
    });
    const deadline = new AbortController();
    const reading = readBodyWithLimit(stalled, 100, deadline.signal);
    deadline.abort(new DOMException("too slow", "TimeoutError"));
    await expect(reading).rejects.toMatchObject({ name: "TimeoutError" });
    expect(cancelled).toBe(true);
  });

  it("refuses at once when the signal has already aborted", async () => {
    const signal = AbortSignal.abort(new DOMException("late", "TimeoutError"));
    await expect(readBodyWithLimit(stream([1]), 100, signal)).rejects.toMatchObject({ name: "TimeoutError" });
  });
});

describe("downloads", () => {
  it("offers a safe file name with a UTF-8 fallback", () => {
    expect(downloadName('a/b\\"c\n.csv')).toBe("a_b_c_.csv");
    const r = fileResponse("x", "Café v2.csv", "text/csv");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="Caf_ v2.csv"; filename*=UTF-8''Caf%C3%A9%20v2.csv`);
    expect(exportFormat(new URL("http://x/?format=JSONL"))).toBe("jsonl");
    expect(exportFormat(new URL("http://x/"))).toBe("csv");
    expect(exportFormat(new URL("http://x/?format=xml"))).toBeNull();
  });
});
