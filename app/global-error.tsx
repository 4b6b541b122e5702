"use client";

import "./globals.css";
import { ErrorNotice } from "@/components/errors/error-notice";
import { HydrationMark } from "@/components/ui/hydration-mark";

/**
 * The root layout itself failed: replaces it, so it brings its own html, body and a plain header.
 * Same message as app/error.tsx.
 */
export default function GlobalError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <HydrationMark />
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex h-12 max-w-[1600px] items-center px-6 font-semibold tracking-tight text-slate-900">Benchwork</div>
        </header>
        <main className="mx-auto max-w-[1600px] px-6 py-6">
          <ErrorNotice digest={error.digest} onRetry={retry} />
        </main>
      </body>
    </html>
  );
}
