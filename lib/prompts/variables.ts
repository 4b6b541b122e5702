/**
 * Which `{{variables}}` of a template some active cases lack — shown before an edit is saved, so a
 * new placeholder does not silently exclude cases from the next bench (the plan excludes a case
 * that lacks one, with "missing variable x"). Pure.
 */
import { templateVariables } from "../runtime/template";

/** A variable the template needs and the active cases that do not define it. */
export interface MissingVariable {
  name: string;
  /** True when the base template did not use it (this edit introduces it). */
  introduced: boolean;
  /** How many active cases lack it. */
  caseCount: number;
  /** The first case IDs that lack it (at most `sample`). */
  caseKeys: string[];
}

/**
 * @param template the new system prompt template
 * @param baseTemplate the template the edit started from
 * @param cases the prompt's active cases: case ID and variable names
 * @param sample how many case IDs to name per variable (default 5)
 * @returns one entry per template variable that at least one case lacks, in template order
 */
export function variablesMissingFromCases(
  template: string,
  baseTemplate: string,
  cases: readonly { caseKey: string; variables: readonly { name: string }[] }[],
  sample = 5,
): MissingVariable[] {
  const before = new Set(templateVariables(baseTemplate));
  const out: MissingVariable[] = [];
  for (const name of templateVariables(template)) {
    const lacking = cases.filter((c) => !c.variables.some((v) => v.name === name));
    if (lacking.length) out.push({ name, introduced: !before.has(name), caseCount: lacking.length, caseKeys: lacking.slice(0, sample).map((c) => c.caseKey) });
  }
  return out;
}
