/**
 * Batched console output for `benchwork run`: one line per case is cheap to read but, written one
 * by one, costs more CPU than the case itself on large suites. Lines are collected and written in
 * chunks (at most `maxLines` lines or `flushMs` ms apart); `flush()` writes what is pending.
 */

/** A line sink that writes in chunks. */
export interface LineBuffer {
  /** Queues one line (without its newline). */
  line(text: string): void;
  /** Writes every queued line now. */
  flush(): void;
}

/**
 * Creates a line buffer.
 * @param write writes one chunk of lines joined with "\n" (the sink adds the final newline, like `Io.out`)
 * @param options `maxLines` per chunk (default 256), `flushMs` longest wait before pending lines are written (default 100 ms); `immediate` writes every line at once (terminals)
 */
export function lineBuffer(write: (chunk: string) => void, options: { maxLines?: number; flushMs?: number; immediate?: boolean } = {}): LineBuffer {
  const maxLines = options.maxLines ?? 256;
  const flushMs = options.flushMs ?? 100;
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const chunk = pending.join("\n");
    pending = [];
    write(chunk);
  };
  return {
    line(text) {
      if (options.immediate) return write(text);
      pending.push(text);
      if (pending.length >= maxLines) flush();
      else if (!timer) {
        timer = setTimeout(flush, flushMs);
        timer.unref?.();
      }
    },
    flush,
  };
}
