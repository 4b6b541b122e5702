/**
 * Reads a request body with a byte limit, stopping as soon as the limit is passed (the upload
 * route never buffers more than the limit, whatever Content-Length claims).
 */

/**
 * The body's bytes, or `null` when it is longer than `maxBytes` (reading stops there).
 * @param body a request body stream (or null for an empty body)
 * @param maxBytes most bytes accepted
 */
export async function readBodyWithLimit(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
