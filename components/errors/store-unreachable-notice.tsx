"use client";

import { ErrorNotice } from "./error-notice";

/** "The database cannot be reached", with Try again loading the page anew (the root layout shows it). */
export function StoreUnreachableNotice() {
  return <ErrorNotice unreachable onRetry={() => window.location.reload()} />;
}
