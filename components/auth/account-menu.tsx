"use client";

/** The header's account corner: who is signed in, their pages, sign out (here or everywhere). */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { signOutEverywhereAction } from "@/app/account/actions";
import type { Role } from "@/lib/auth/roles";

export function AccountMenu({ email, role }: { email: string; role: Role }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);

  async function signOut(everywhere: boolean) {
    setBusy(true);
    if (everywhere) await signOutEverywhereAction().catch(() => null);
    // The session row is gone either way after this; the cookie is cleared by better-auth.
    await fetch("/api/auth/sign-out", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).catch(() => null);
    // Re-render the layout too: its header showed the account.
    router.replace("/sign-in");
    router.refresh();
  }

  return (
    <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
      <span data-testid="signed-in-as">
        {email} · {role}
      </span>
      {role === "admin" ? (
        <Link href="/users" className="hover:text-slate-900">
          Users
        </Link>
      ) : null}
      <Link href="/tokens" className="hover:text-slate-900">
        Tokens
      </Link>
      <button type="button" className="hover:text-slate-900" disabled={busy} onClick={() => signOut(false)}>
        Sign out
      </button>
      <button type="button" className="hover:text-slate-900" disabled={busy} onClick={() => signOut(true)}>
        Sign out everywhere
      </button>
    </div>
  );
}
