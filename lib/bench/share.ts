/**
 * Splitting a bound (a bench's concurrency, a provider's limit) over `parts` holders — worker
 * processes sharing a bench, trial threads sharing a worker — so the shares add up to exactly the
 * bound: holder `i` gets ⌊c/n⌋, plus one for the first c mod n holders (some may get 0).
 * @param bound the total (≥ 0)
 * @param parts how many holders (≥ 1)
 * @param i the holder's index, 0-based
 */
export function concurrencyShare(bound: number, parts: number, i: number): number {
  return Math.floor(bound / parts) + (i < bound % parts ? 1 : 0);
}
