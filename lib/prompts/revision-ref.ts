/**
 * A prompt revision named in text, as `bench run --candidate model:CONFIG@REF` takes it:
 * `3` or `r3` (a revision number), `current` (the prompt's current revision) or `previous` (the
 * revision before the current one). Pure.
 */

/** The words {@link resolveRevisionRef} accepts besides numbers. */
export const REVISION_WORDS = ["current", "previous"] as const;

/**
 * @param ref what the user wrote after `@`
 * @param revisions the prompt's revisions (any order); `currentId` marks the current one
 * @returns the revision, or `{ error }` in words that list what exists
 */
export function resolveRevisionRef<R extends { id: number; number: number }>(ref: string, revisions: readonly R[], currentId: number): R | { error: string } {
  const sorted = [...revisions].sort((a, b) => b.number - a.number);
  const have = `it has ${
    sorted
      .map((r) => `r${r.number}`)
      .reverse()
      .join(", ") || "none"
  }`;
  const current = sorted.find((r) => r.id === currentId);
  const word = ref.trim().toLowerCase();
  if (word === "current") return current ?? { error: `no current revision (${have})` };
  if (word === "previous") {
    const prev = current ? sorted.find((r) => r.number < current.number) : undefined;
    return prev ?? { error: `no revision before the current one r${current?.number ?? "?"} (${have}): edit the prompt first, or name a revision` };
  }
  const m = /^r?(\d+)$/i.exec(word);
  const found = m ? sorted.find((r) => r.number === Number(m[1])) : undefined;
  return found ?? { error: `no revision ${ref} (${have}; or write current or previous)` };
}
