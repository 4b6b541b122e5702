/**
 * Near-duplicate detection for generated items by normalised text similarity (no model needed):
 * texts are Unicode-normalised (NFKC), stripped of invisible format characters, case-folded, and
 * reduced to letters and digits separated by single spaces; two texts are compared by the Dice
 * coefficient of their character trigrams (1 = same normalised text, 0 = no trigram in common).
 * Trigrams catch reworded near-copies ("Answer in French" / "Answers in french.") that exact
 * matching misses, while short distinct rules stay apart.
 */

/** Default similarity at or above which two items count as near-duplicates. */
export const DEFAULT_DUPLICATE_THRESHOLD = 0.8;

/** The text as compared: NFKC, no format characters, lower case, only letters/digits and single spaces. */
export function normaliseText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function trigrams(normalised: string): Map<string, number> {
  const padded = `  ${normalised} `;
  const out = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const g = padded.slice(i, i + 3);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/**
 * Similarity of two texts in [0, 1]: the Dice coefficient of their normalised texts' character
 * trigrams (multiset). Two texts that normalise to the same string score 1; two empty texts score 1.
 */
export function textSimilarity(a: string, b: string): number {
  const na = normaliseText(a);
  const nb = normaliseText(b);
  if (na === nb) return 1;
  if (!na || !nb) return 0;
  const ta = trigrams(na);
  const tb = trigrams(nb);
  let common = 0;
  let total = 0;
  for (const n of ta.values()) total += n;
  for (const n of tb.values()) total += n;
  for (const [g, n] of ta) common += Math.min(n, tb.get(g) ?? 0);
  return (2 * common) / total;
}

/** An item dropped as a near-duplicate: its text, the text it repeats, where that one is, and the similarity. */
export interface DuplicateDrop {
  text: string;
  duplicateOf: string;
  /** `existing`: already in the library (or a sample of it); `batch`: an earlier proposal of this batch. */
  of: "existing" | "batch";
  similarity: number;
}

/**
 * Keeps the items whose text is not a near-duplicate of an existing text or of an item kept before
 * it (first wins, order kept).
 * @param items the proposals in order
 * @param textOf the text compared (a criterion's rule, a scenario's input)
 * @param existing texts already in the library
 * @param threshold similarity at or above which an item is dropped (default {@link DEFAULT_DUPLICATE_THRESHOLD})
 * @returns the kept items and one {@link DuplicateDrop} per dropped item
 */
export function dropNearDuplicates<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  existing: readonly string[],
  threshold = DEFAULT_DUPLICATE_THRESHOLD,
): { kept: T[]; dropped: DuplicateDrop[] } {
  const kept: T[] = [];
  const dropped: DuplicateDrop[] = [];
  for (const item of items) {
    const text = textOf(item);
    let best: { of: "existing" | "batch"; text: string; similarity: number } | null = null;
    for (const e of existing) {
      const s = textSimilarity(text, e);
      if (s >= threshold && (!best || s > best.similarity)) best = { of: "existing", text: e, similarity: s };
    }
    for (const k of kept) {
      const s = textSimilarity(text, textOf(k));
      if (s >= threshold && (!best || s > best.similarity)) best = { of: "batch", text: textOf(k), similarity: s };
    }
    if (best) dropped.push({ text, duplicateOf: best.text, of: best.of, similarity: round2(best.similarity) });
    else kept.push(item);
  }
  return { kept, dropped };
}

/**
 * Diversity of a batch in [0, 1]: one minus the mean pairwise similarity of its texts (1 = no
 * trigram shared by any pair). Null for fewer than two texts, where diversity means nothing.
 */
export function diversity(texts: readonly string[]): number | null {
  if (texts.length < 2) return null;
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      sum += textSimilarity(texts[i], texts[j]);
      pairs++;
    }
  return round2(1 - sum / pairs);
}

const round2 = (x: number) => Math.round(x * 100) / 100;
