/**
 * What `bench run --fail-on` fails on (issue #16): CI must not pass a change the bench shows to be
 * worse, nor (with `inconclusive`) one it cannot tell apart. Pure: the report computes the reasons,
 * the CLI picks the ones its `--fail-on` list asks for.
 */
import { formatPoints, formatPValue } from "./format";
import type { PrimaryComparison } from "./headline";
import { counted } from "@/lib/bench/counted";

/** A value of `--fail-on`. */
export type FailOn = "worse" | "inconclusive";

const VALUES: readonly FailOn[] = ["worse", "inconclusive"];

/**
 * Parses `--fail-on` values, each a comma-separated list (the option may be repeated):
 * `worse`, `inconclusive`, `worse,inconclusive`.
 * @returns the distinct values, in the order given
 * @throws Error naming the unknown value: `--fail-on takes worse and/or inconclusive, comma-separated (got "x")`
 */
export function parseFailOn(values: readonly string[]): FailOn[] {
  const out: FailOn[] = [];
  for (const part of values.flatMap((v) => v.split(","))) {
    const v = part.trim();
    if (!VALUES.includes(v as FailOn)) throw new Error(`--fail-on takes worse and/or inconclusive, comma-separated (got "${v}")`);
    if (!out.includes(v as FailOn)) out.push(v as FailOn);
  }
  return out;
}

/** Why the primary comparison fails a `--fail-on` rule (null: it does not), without the `--fail-on …:` prefix. */
export interface FailOnReasons {
  /** The primary comparison's verdict is `worse`, or its candidate is blocked (a regression or a gate limit). */
  worse: string | null;
  /** The primary comparison is inconclusive, or nothing was compared. */
  inconclusive: string | null;
}

const plural = (k: number, one: string) => counted(k, one);

/**
 * The reasons of a bench's primary comparison.
 * @param primary see {@link import("./headline").primaryComparison}; null when nothing was compared
 * @param blocked what blocks the primary candidate under the gate: its blocking regressions and the gate limits it exceeds
 */
export function failOnReasons(primary: PrimaryComparison | null, blocked: { regressions: number; limits: readonly string[] }): FailOnReasons {
  if (!primary) return { worse: null, inconclusive: "nothing was compared (one candidate and no earlier bench)" };
  const { candidate, comparison: c } = primary;
  const blocks = [blocked.regressions ? plural(blocked.regressions, "blocking regression") : "", ...blocked.limits].filter(Boolean);
  let worse: string | null = null;
  if (c.verdict === "worse" && c.delta !== null)
    worse = `${candidate.label} is worse than ${c.againstCandidate} (${formatPoints(c.delta)} points${c.pValue !== null ? `, ${formatPValue(c.pValue)}` : ""})${blocks.length ? `; ${blocks.join("; ")}` : ""}`;
  else if (blocks.length) worse = `${candidate.label} is blocked: ${blocks.join("; ")}`;
  const inconclusive =
    c.verdict === "inconclusive"
      ? `${candidate.label} vs ${c.againstCandidate} is inconclusive (the 95 % interval spans 0 or the test is not significant)`
      : null;
  return { worse, inconclusive };
}

/**
 * The first `--fail-on` rule the bench fails, as the line printed on stderr, or null. `inconclusive`
 * also fails on what `worse` fails on: with it only a `better` primary comparison whose candidate is
 * not blocked passes.
 */
export function failOnMessage(reasons: FailOnReasons, failOn: readonly FailOn[]): string | null {
  for (const rule of failOn) {
    const reason = rule === "worse" ? reasons.worse : (reasons.inconclusive ?? reasons.worse);
    if (reason) return `--fail-on ${rule}: ${reason}`;
  }
  return null;
}
