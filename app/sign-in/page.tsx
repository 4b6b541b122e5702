import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNextPath } from "@/lib/auth/next-path";
import { currentActor } from "@/server/auth/actor";
import { oidcConfigFromEnv } from "@/server/auth/oidc-config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string; sso?: string }> }) {
  const { next, error, sso } = await searchParams;
  const to = safeNextPath(next);
  const actor = await currentActor();
  // Signed in already, or single-user mode (nothing to sign in to).
  if (actor) redirect(to);
  let oidcName: string | null = null;
  try {
    oidcName = oidcConfigFromEnv(process.env)?.name ?? null;
  } catch {
    oidcName = null;
  }
  return (
    <div className="mx-auto mt-12 flex max-w-sm flex-col gap-4">
      <h1 className="text-xl font-semibold">Sign in to Benchwork</h1>
      <SignInForm
        next={to}
        oidcName={oidcName}
        initialError={
          sso || error
            ? `Single sign-on did not sign you in (${(error ?? "failed").replace(/[^a-z_]/gi, "").slice(0, 60)}): your e-mail may not be added yet (ask an admin).`
            : null
        }
      />
    </div>
  );
}
