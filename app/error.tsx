"use client";

import { ErrorNotice } from "@/components/errors/error-notice";

/**
 * A page that failed on the server, shown inside the app's layout: "The database cannot be reached"
 * for a store that is down (digest from lib/store/unreachable.ts), else a general message with the
 * digest. `retry` fetches the page again from the server (Next.js 16).
 */
export default function PageError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorNotice digest={error.digest} onRetry={retry} />;
}
