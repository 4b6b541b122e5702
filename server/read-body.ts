/**
 * Reads a request body with a byte limit, stopping as soon as the limit is passed (the upload
 * route never buffers more than the limit, whatever Content-Length claims), and optionally with a
 * deadline, so a client that sends its body slowly cannot hold an upload slot forever.
 */

/**
 * The body's bytes, or `null` when it is longer than `maxBytes` (reading stops there).
 * @param body a request body stream (or null for an empty body)
 * @param maxBytes most bytes accepted
 * @param signal when it aborts, reading stops and the body is cancelled
 * @throws the signal's reason (e.g. a `TimeoutError` from `AbortSignal.timeout`) when it aborts
 *   before the body ended
 */
export async function readBodyWithLimit(body: ReadableStream<Uint8Array> | null, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {}); // observed through the race below
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
