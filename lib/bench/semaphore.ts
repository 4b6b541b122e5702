/**
 * An async semaphore per key with waiting (per-provider concurrency across benches). Waiters are
 * served in arrival order; an aborted waiter leaves the line.
 */
export class KeyedSemaphore {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: (key: string) => number) {}

  /**
   * Resolves when a slot of `key` is taken.
   * @throws the signal's reason when aborted while waiting
   */
  async acquire(key: string, signal?: AbortSignal): Promise<void> {
    const n = this.held.get(key) ?? 0;
    if (n < this.limit(key)) {
      this.held.set(key, n + 1);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const q = this.waiting.get(key) ?? [];
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const list = this.waiting.get(key) ?? [];
        const i = list.indexOf(grant);
        if (i >= 0) list.splice(i, 1);
        reject(signal!.reason ?? new Error("aborted"));
      };
      q.push(grant);
      this.waiting.set(key, q);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Releases a slot of `key`, handing it to the next waiter if any. */
  release(key: string): void {
    const q = this.waiting.get(key);
    if (q && q.length) {
      q.shift()!(); // the slot passes directly to the waiter
      return;
    }
    const n = (this.held.get(key) ?? 0) - 1;
    if (n <= 0) this.held.delete(key);
    else this.held.set(key, n);
  }
}
