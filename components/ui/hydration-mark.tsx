"use client";

import { useEffect } from "react";

/**
 * Marks the document once React has hydrated it: `<html data-hydrated="true">`. Nothing in the app
 * reads it; the end-to-end tests wait for it after each page load before they type, because
 * hydration resets a controlled field's text and caret under typing that came before it (a fill
 * just before hydration saved "Edited in tab BOriginal question"). Rendered once, in the root layout
 * (and the global error page that replaces it): no page has a Suspense boundary of its own, so the
 * whole page hydrates in the commit whose effects set the mark.
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
