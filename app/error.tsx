"use client";

import { ErrorNotice } from "@/components/errors/error-notice";

/**
 * A page that failed on the server, shown inside the app's layout: a general message with the
 * digest to find the error in the server's log (a store that cannot be reached is said by the root
 * layout itself). `retry` fetches the page again from the server (Next.js 16).
 */
export default function PageError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return <ErrorNotice digest={error.digest} onRetry={retry} />;
}
