/**
 * Storage form of case content: `input` and `expected` are columns; the rest is one JSON object
 * (`details`). Decoding tolerates missing keys (older revisions) by filling defaults.
 */
import { emptyCaseContent, type CaseContent } from "./case-content";

/** Details JSON of a case revision (everything but input and expected). */
export function encodeDetails(c: CaseContent): string {
  const { input: _i, expected: _e, ...rest } = c;
  return JSON.stringify(rest);
}

/**
 * Rebuilds content from stored columns.
 * @throws SyntaxError when `details` is not JSON (a corrupted row).
 */
export function decodeContent(input: string, expected: string, details: string): CaseContent {
  const parsed = JSON.parse(details || "{}") as Partial<CaseContent>;
  return { ...emptyCaseContent(), ...parsed, input, expected };
}

/** True when two contents are the same (a save that changes nothing makes no revision). */
export function sameContent(a: CaseContent, b: CaseContent): boolean {
  return a.input === b.input && a.expected === b.expected && encodeDetails(a) === encodeDetails(b);
}
