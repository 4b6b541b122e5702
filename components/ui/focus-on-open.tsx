"use client";

import { useEffect } from "react";

/**
 * Moves keyboard focus to the element `targetId` when it mounts: a panel opened from a link (the
 * trial view, opened from a matrix cell with Enter) takes focus, so the next Tab reads the panel
 * instead of the rest of the matrix. Render it with a `key` of what the panel shows, so opening
 * another one moves focus again. The target needs `tabIndex={-1}`.
 */
export function FocusOnOpen({ targetId }: { targetId: string }) {
  useEffect(() => {
    document.getElementById(targetId)?.focus({ preventScroll: true });
  }, [targetId]);
  return null;
}
