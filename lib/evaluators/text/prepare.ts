/**
 * Text preparation shared by `exact`, `contains` and `answer_bank`: optional Unicode NFC
 * normalisation (default on), trimming of invisible characters and case folding.
 */
import { SPEC_DEFAULTS } from "../spec";
import { trimInvisible } from "./invisible";

/** Resolved text comparison options (defaults applied). */
export interface TextOptions {
  normalizeUnicode: boolean;
  trim: boolean;
  ignoreCase: boolean;
}

/** Applies {@link SPEC_DEFAULTS} to the optional text options of a spec. */
export function resolveTextOptions(spec: { normalizeUnicode?: boolean; trim?: boolean; ignoreCase?: boolean }): TextOptions {
  return {
    normalizeUnicode: spec.normalizeUnicode ?? SPEC_DEFAULTS.normalizeUnicode,
    trim: spec.trim ?? SPEC_DEFAULTS.trim,
    ignoreCase: spec.ignoreCase ?? SPEC_DEFAULTS.ignoreCase,
  };
}

/** True when the string is pure ASCII (NFC normalisation cannot change it). */
// The ASCII range starts at NUL on purpose.
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** NFC form of `text`, skipping the work for ASCII. */
export function nfc(text: string): string {
  return NON_ASCII.test(text) ? text.normalize("NFC") : text;
}

/** Applies the options to `text`: NFC first, then trim, then lower-case. */
export function prepareText(text: string, options: TextOptions): string {
  let t = options.normalizeUnicode ? nfc(text) : text;
  if (options.trim) t = trimInvisible(t);
  if (options.ignoreCase) t = t.toLowerCase();
  return t;
}

/** Words for the options that are on, for messages and summaries: e.g. "ignoring case, trimmed". */
export function describeTextOptions(options: TextOptions): string {
  const parts: string[] = [];
  if (options.ignoreCase) parts.push("ignoring case");
  if (options.trim) parts.push("ignoring surrounding whitespace");
  if (!options.normalizeUnicode) parts.push("no Unicode normalization");
  return parts.join(", ");
}
