import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { TokensView } from "@/components/auth/tokens-view";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { currentActor } from "@/server/auth/actor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your tokens and password" };

export default async function TokensPage() {
  const actor = await currentActor();
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">API tokens</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Personal tokens for CI and scripts (<code>Authorization: Bearer …</code>, or <code>BENCHWORK_TOKEN</code> for the CLI). A token acts as you:{" "}
          <b>read</b> reads only, <b>run</b> may also do what your role ({actor?.role}) allows. The secret is shown once and stored only as a hash.
        </p>
      </div>
      {actor?.kind === "session" ? (
        // A server component renders once per request: "expired" counts from the request's time.
        // eslint-disable-next-line react-hooks/purity
        <TokensView tokens={await listApiTokens(getDb(), actor.userId)} now={Date.now()} />
      ) : (
        <p className="text-sm text-slate-700">Single-user mode has no accounts, so no tokens: add a user first (README, “Run it for a team”).</p>
      )}
      {actor?.kind === "session" ? (
        <section aria-label="Password" className="flex flex-col gap-2">
          <h2 className="text-base font-semibold">Password</h2>
          <ChangePasswordForm />
        </section>
      ) : null}
    </div>
  );
}
