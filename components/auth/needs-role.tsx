import Link from "next/link";
import type { PageRefusal } from "@/lib/auth/page-access";

/** What a page that only changes things shows a role that may not (server/auth/page-guard.ts). */
export function NeedsRole({ refusal, back }: { refusal: PageRefusal; back?: { href: string; label: string } }) {
  return (
    <div className="flex max-w-2xl flex-col gap-2" data-testid="needs-role">
      <h2 className="text-lg font-semibold">{refusal.title}</h2>
      <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {refusal.message}
      </p>
      {back ? (
        <p className="text-sm">
          <Link href={back.href} className="text-sky-700 underline">
            {back.label}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
