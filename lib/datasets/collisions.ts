/**
 * Case ID collisions when a dataset version is used for a prompt (issue 15, "Case IDs"): case IDs
 * are unique within a prompt's library, so a row whose ID a live case of the same prompt already
 * holds collides. The user chooses: skip those rows, prefix the new ones with the dataset's name,
 * or — when the existing cases come from an earlier version of the same dataset — make new
 * revisions of them. Pure: the store's part is db/queries/datasets.ts.
 */
import { caseKeyProblem } from "@/lib/library/case-key";

/** The collision choices, as the page and the CLI's `--on-collision` name them. */
export const COLLISION_CHOICES = ["skip", "prefix", "revise"] as const;
/** One of {@link COLLISION_CHOICES}. */
export type CollisionChoice = (typeof COLLISION_CHOICES)[number];

/** A live case of the target prompt that holds a case ID. */
export interface ExistingCase {
  caseId: number;
  caseKey: string;
  /** Where it came from when it was made from a dataset version. */
  dataset?: { datasetId: number; version: number };
}

/** The dataset version being used. */
export interface UsedVersion {
  datasetId: number;
  datasetName: string;
  version: number;
}

/** A row of the version that has a case ID. */
export interface KeyedRow {
  row: number;
  caseKey: string;
}

/** What {@link resolveCollisions} decided. */
export interface CollisionPlan {
  /** Rows that collide, whatever the choice. */
  collisions: { row: number; caseKey: string; existing: ExistingCase; fromEarlierVersion: boolean }[];
  /** Rows left out (skip). */
  skipped: number[];
  /** Row → the case ID the new case gets (prefix). */
  renamed: Map<number, string>;
  /** Row → the existing case that gets a new revision (revise). */
  revised: Map<number, ExistingCase>;
  /** Why the use cannot go ahead with this choice; empty when it can. */
  refusals: string[];
}

/**
 * The prefixed case ID of a row: the dataset's name, a hyphen, the row's case ID.
 * @param datasetName the dataset's name
 * @param caseKey the row's case ID
 */
export function prefixedKey(datasetName: string, caseKey: string): string {
  return `${datasetName.trim()}-${caseKey}`;
}

/**
 * Decides what happens to rows whose case IDs collide with live cases of the target prompt.
 * @param rows the version's rows that become cases and have a case ID
 * @param existing live cases of the target prompt by case ID
 * @param used the version being used
 * @param choice the user's choice; undefined = none yet (a collision is then a refusal naming the choices)
 */
export function resolveCollisions(
  rows: readonly KeyedRow[],
  existing: ReadonlyMap<string, ExistingCase>,
  used: UsedVersion,
  choice: CollisionChoice | undefined,
): CollisionPlan {
  const plan: CollisionPlan = { collisions: [], skipped: [], renamed: new Map(), revised: new Map(), refusals: [] };
  const rowKeys = new Set(rows.map((r) => r.caseKey));
  for (const r of rows) {
    const e = existing.get(r.caseKey);
    if (!e) continue;
    const fromEarlierVersion = e.dataset !== undefined && e.dataset.datasetId === used.datasetId && e.dataset.version < used.version;
    plan.collisions.push({ row: r.row, caseKey: r.caseKey, existing: e, fromEarlierVersion });
  }
  if (plan.collisions.length === 0) return plan;
  const list = (xs: { row: number; caseKey: string }[]) =>
    `${xs
      .slice(0, 3)
      .map((c) => `row ${c.row} (“${c.caseKey}”)`)
      .join(", ")}${xs.length > 3 ? ` and ${xs.length - 3} more` : ""}`;
  switch (choice) {
    case undefined: {
      const earlier = plan.collisions.every((c) => c.fromEarlierVersion);
      const choices = earlier
        ? "skip those rows, prefix them with the dataset's name, or make new revisions of the existing cases"
        : "skip those rows or prefix them with the dataset's name";
      plan.refusals.push(
        `${plan.collisions.length} case ID(s) of this version are already used in this prompt's library: ${list(plan.collisions)}. Choose: ${choices}.`,
      );
      break;
    }
    case "skip":
      plan.skipped = plan.collisions.map((c) => c.row);
      break;
    case "prefix":
      for (const c of plan.collisions) {
        const key = prefixedKey(used.datasetName, c.caseKey);
        const problem = caseKeyProblem(key);
        if (problem) plan.refusals.push(`Row ${c.row}: the prefixed case ID “${key}” cannot be used: ${problem}`);
        else if (existing.has(key) || rowKeys.has(key)) plan.refusals.push(`Row ${c.row}: the prefixed case ID “${key}” is also taken.`);
        else plan.renamed.set(c.row, key);
      }
      break;
    case "revise": {
      const others = plan.collisions.filter((c) => !c.fromEarlierVersion);
      if (others.length > 0) {
        plan.refusals.push(
          `New revisions are only made of cases from an earlier version of “${used.datasetName}”; ${list(others)} collide with other cases of this prompt. Skip those rows or prefix them with the dataset's name.`,
        );
      } else for (const c of plan.collisions) plan.revised.set(c.row, c.existing);
      break;
    }
  }
  return plan;
}
