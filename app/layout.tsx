import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";
import { ToastProvider } from "@/components/ui/toast";

// Every page renders per request: its scripts carry the CSP nonce proxy.ts made for that response
// (a page prerendered at build time would carry none, and its scripts would be blocked).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Benchwork", template: "%s · Benchwork" },
  description: "Test library and bench workbench for LLM applications",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <ToastProvider>
          <header className="border-b border-slate-200 bg-white">
            <div className="mx-auto flex h-12 max-w-[1600px] items-center gap-6 px-6">
              <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
                {/* A 20 px decorative SVG: next/image would add nothing but a wrapper. */}
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img src="/icon.svg" alt="" aria-hidden className="h-5 w-5" />
                Benchwork
              </Link>
              <nav className="flex gap-4 text-sm text-slate-600">
                <Link href="/" className="hover:text-slate-900">
                  Systems
                </Link>
                <Link href="/models" className="hover:text-slate-900">
                  Models
                </Link>
                <Link href="/activity" className="hover:text-slate-900">
                  Activity
                </Link>
                <Link href="/about" className="hover:text-slate-900">
                  About
                </Link>
              </nav>
            </div>
          </header>
          <main className="mx-auto max-w-[1600px] px-6 py-6">{children}</main>
        </ToastProvider>
      </body>
    </html>
  );
}
