import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";
import { ToastProvider } from "@/components/ui/toast";
import { AccountMenu } from "@/components/auth/account-menu";
import { RoleProvider } from "@/components/auth/role-context";
import { currentActor, type Actor } from "@/server/auth/actor";
import { isStoreUnreachable } from "@/lib/store/unreachable";
import { StoreUnreachableNotice } from "@/components/errors/store-unreachable-notice";
import { HydrationMark } from "@/components/ui/hydration-mark";

// Every page renders per request: its scripts carry the CSP nonce proxy.ts made for that response
// (a page prerendered at build time would carry none, and its scripts would be blocked).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Benchwork", template: "%s · Benchwork" },
  description: "Test library and bench workbench for LLM applications",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // proxy.ts already sent visitors without a session to /sign-in; null here = the sign-in page.
  // The store went away after proxy.ts let the request in (or on a public page it does not look up):
  // the app's chrome says so in place of the page.
  const who = await currentActor().then(
    (actor: Actor | null) => ({ actor, unreachable: false }),
    (e: unknown) => {
      if (!isStoreUnreachable(e)) throw e;
      return { actor: null, unreachable: true };
    },
  );
  const { actor, unreachable } = who;
  return (
    <html lang="en">
      <body className="min-h-screen">
        <HydrationMark />
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
              {actor && actor.kind !== "local" ? <AccountMenu email={actor.email} role={actor.role} /> : null}
            </div>
            {actor?.kind === "local" ? (
              <p data-testid="single-user-notice" className="border-t border-amber-200 bg-amber-50 px-6 py-1 text-center text-xs text-amber-900">
                Single-user mode: no accounts yet, so whoever can reach this machine&apos;s 127.0.0.1 uses Benchwork as admin. Add the first account with{" "}
                <code>npx benchwork user add --admin EMAIL</code> to require sign-in.
              </p>
            ) : null}
          </header>
          <main className="mx-auto max-w-[1600px] px-6 py-6">
            {unreachable ? <StoreUnreachableNotice /> : <RoleProvider role={actor?.role ?? "viewer"}>{children}</RoleProvider>}
          </main>
        </ToastProvider>
      </body>
    </html>
  );
}
