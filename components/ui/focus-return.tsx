"use client";

import { useEffect } from "react";

/**
 * Gives keyboard focus back to the element that opened a panel when the panel closes (unmounts):
 * the trial view, closed with Escape or its ✕, returns focus to its matrix cell instead of letting
 * it fall to <body> (where the next Tab starts again at the top of the page). Focus moves only when
 * it was lost with the panel: a user who clicked elsewhere keeps it there.
 * @param selector CSS selector of the element to focus (the opener; it must still be on the page)
 */
export function FocusReturn({ selector }: { selector: string }) {
  useEffect(
    () => () => {
      // The cleanup runs as the panel goes; the navigation that closed it may commit the rest of
      // the page a frame later, so look for the opener then.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active && active !== document.body && active.isConnected) return;
        document.querySelector<HTMLElement>(selector)?.focus({ preventScroll: false });
      });
    },
    [selector],
  );
  return null;
}
