/**
 * `non_empty`: fails when the output is empty or made only of invisible characters (whitespace,
 * zero-width characters, BOM, NBSP, direction marks, ... — see text/invisible.ts). Anything visible
 * passes, including `0`, `false` and `.`.
 */
import type { NonEmptySpec } from "../spec";
import { failed, passed } from "../result";
import { codePointLength } from "../text/diff";
import { isBlank, summarizeInvisible } from "../text/invisible";
import { outputOf, type StaticRunner } from "./common";

const KIND = "non_empty";

/** Compiles a `non_empty` spec into a runner. Never throws. */
export function compileNonEmpty(_spec: NonEmptySpec): StaticRunner {
  return (trial) => {
    const output = outputOf(trial);
    if (output.length === 0) return failed(KIND, "The output is empty.");
    if (isBlank(output))
      return failed(KIND, `The output contains only invisible characters (${summarizeInvisible(output)}).`, { length: codePointLength(output) });
    return passed(KIND, "The output is not empty.");
  };
}
