/** Text output shared by `benchwork dataset inspect` and `benchwork dataset import`. */
import type { ImportProblem } from "@/lib/import/types";
import { countProblems, problemPlace } from "@/lib/datasets/labels";
import type { Io } from "../io";

/** Most problems printed in text mode (all of them are in `--json`). */
export const MAX_PRINTED_PROBLEMS = 50;

/**
 * Prints problems one per line: `error   row 2 (line 3), column "answer": Row 2 has no expected result.`
 * @param problems the problems
 * @param write where to print (stdout or stderr)
 */
export function printProblems(problems: readonly ImportProblem[], write: Io["out"]): void {
  const { errors, warnings } = countProblems(problems);
  if (problems.length === 0) return;
  write(`Problems: ${errors} error(s), ${warnings} warning(s)`);
  for (const p of problems.slice(0, MAX_PRINTED_PROBLEMS)) {
    const place = problemPlace(p);
    write(`  ${p.severity.padEnd(7)} ${place ? `${place}: ` : ""}${p.message}`);
  }
  if (problems.length > MAX_PRINTED_PROBLEMS) write(`  … and ${problems.length - MAX_PRINTED_PROBLEMS} more (use --json to see every one)`);
}

/**
 * A cell shortened for one line of text: newlines shown as `⏎`, at most `max` characters.
 * @param text the cell
 * @param max most characters kept
 */
export function shortCell(text: string, max = 40): string {
  const flat = text.replace(/\r?\n/g, "⏎");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
