import { n as thousands } from "./progress-counts";

/**
 * A count with its noun in the right number, for the lines `bench run` prints (issue #16: "1 trials",
 * "1 model calls"): `counted(1, "trial")` → "1 trial", `counted(2_000, "trial")` → "2,000 trials".
 * @param one the noun for exactly one
 * @param many the noun for any other count (default: `one` + "s")
 */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}
