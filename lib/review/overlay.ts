/**
 * Human verdicts over the judge's record (issue 18). A trial's `checks` stay as the evaluators and
 * the judge wrote them; a reviewer's `pass` or `fail` on a check takes precedence in that trial's
 * score, and `cant_tell` leaves the recorded verdict standing (a reviewer who cannot tell has not
 * contradicted the judge). Pure: the callers read the verdicts through `db/queries`.
 */
import type { CheckRecord } from "../bench/types";

/** What a reviewer says about one check. */
export type HumanVerdictValue = "pass" | "fail" | "cant_tell";

/** The human verdict values, for validation. */
export const HUMAN_VERDICTS: readonly HumanVerdictValue[] = ["pass", "fail", "cant_tell"];

/** A reviewer's verdict on one check of one trial, as scoring reads it. */
export interface HumanCheckVerdict {
  checkKey: string;
  verdict: HumanVerdictValue;
}

/** A check as scored: the recorded check, with the recorded verdict kept when a human's replaced it. */
export type ScoredCheck<T extends Pick<CheckRecord, "key" | "verdict">> = T & {
  /** The verdict the evaluator or judge recorded, present only when a human verdict replaced it. */
  recordedVerdict?: CheckRecord["verdict"];
  /** The human verdict read for this check (the last one given), when there is one. */
  human?: HumanVerdictValue;
};

/**
 * The checks of one trial with the human verdicts applied.
 * @param checks the trial's recorded checks (never changed: new objects are returned where a verdict applies)
 * @param human the trial's human verdicts, oldest first: the last one per check key wins; keys that
 *   name no check are ignored
 * @returns one check per recorded check, in order; a `pass` makes it `passed`, a `fail` `failed`
 *   (with `recordedVerdict` set), a `cant_tell` only sets `human`
 */
export function applyHumanVerdicts<T extends Pick<CheckRecord, "key" | "verdict">>(
  checks: readonly T[],
  human: readonly HumanCheckVerdict[],
): ScoredCheck<T>[] {
  if (human.length === 0) return [...checks];
  const last = new Map<string, HumanVerdictValue>();
  for (const h of human) last.set(h.checkKey, h.verdict);
  return checks.map((c) => {
    const h = last.get(c.key);
    if (h === undefined) return c;
    if (h === "cant_tell") return { ...c, human: h };
    const verdict: CheckRecord["verdict"] = h === "pass" ? "passed" : "failed";
    return { ...c, verdict, recordedVerdict: c.verdict, human: h };
  });
}
