"use client";

import type { ComponentProps } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A `<textarea>` that takes typing only once React has hydrated it: read-only in the server's HTML
 * and until hydration ends. React's hydration puts a textarea's server text back into the field,
 * with the caret at its start, so what someone typed first on a slow page load was lost or mixed
 * into it ("Typed right after the page loadedAre your cards available in Europe?"), and saved so.
 * A field first shown on the client (a panel opened by a click) takes typing at once.
 */
export function Textarea({ readOnly, ...props }: ComponentProps<"textarea">) {
  const hydrated = useHydrated();
  return <textarea {...props} readOnly={readOnly || !hydrated} />;
}
