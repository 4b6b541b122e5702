/**
 * Case IDs (DESIGN.md §1: a stable case ID). A user may choose one; otherwise one is generated
 * from the prompt name and a random suffix and never changes afterwards.
 */
import { LIMITS } from "./limits";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, no i/l/o/u

/**
 * Generates a case ID such as `solver-7k3m9q2d` (prompt name slug + 8 base32 characters, 40 bits).
 * @param promptName the target prompt's name
 * @param random a source of 8 random bytes (injected so tests are deterministic)
 */
export function generateCaseKey(promptName: string, random: (n: number) => Uint8Array): string {
  const slug =
    promptName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "case";
  const bytes = random(8);
  let suffix = "";
  for (let i = 0; i < 8; i++) suffix += ALPHABET[bytes[i] % 32];
  return `${slug}-${suffix}`;
}

/**
 * Checks a user-chosen case ID. Returns a message naming the problem, or null when it is valid.
 * Rule: 1–128 characters, not blank, no leading/trailing whitespace, no control characters, no
 * invisible format characters (Unicode category Cf). Case IDs are
 * stored exactly as written (DESIGN.md §6), so nothing is normalised here.
 */
export function caseKeyProblem(key: string): string | null {
  if (key.length === 0) return "Case ID is empty.";
  if (key.trim() === "") return "Case ID cannot be blank.";
  if (key.length > LIMITS.caseId) return `Case ID is ${key.length} characters; the limit is ${LIMITS.caseId}.`;
  if (key.trim() !== key) return "Case ID must not start or end with spaces.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return "Case ID must not contain control characters (tabs, newlines).";
  // Invisible and direction-changing characters (zero-width spaces, bidi overrides) would make two
  // IDs look the same or an ID look like another.
  if (/\p{Cf}/u.test(key)) return "Case ID must not contain invisible or direction-changing characters (such as zero-width spaces or U+202E).";
  return null;
}
