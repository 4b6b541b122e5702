"use client";

/**
 * E-mail + password sign-in against better-auth's endpoint (rate-limited there), and the single
 * sign-on button when OpenID Connect is configured. A full page load follows, so every server
 * component renders with the new session.
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, json };
}

export function SignInForm({ next, oidcName, initialError }: { next: string; oidcName: string | null; initialError: string | null }) {
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const r = await post("/api/auth/sign-in/email", { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });
      if (r.status === 200) {
        window.location.assign(next);
        return;
      }
      if (r.status === 429) setError("Too many sign-in attempts. Wait a minute, then try again.");
      else if (r.status === 401) setError("Wrong e-mail or password.");
      else setError(typeof r.json.message === "string" ? r.json.message : `Sign-in failed (HTTP ${r.status}).`);
    } catch {
      setError("The server could not be reached.");
    }
    setBusy(false);
  }

  async function onSso() {
    setBusy(true);
    setError(null);
    const r = await post("/api/auth/sign-in/social", { provider: "oidc", callbackURL: next, errorCallbackURL: "/sign-in?sso=failed" }).catch(() => null);
    if (r && typeof r.json.url === "string") {
      window.location.assign(r.json.url);
      return;
    }
    setError(r?.status === 429 ? "Too many sign-in attempts. Wait a minute, then try again." : "Single sign-on is not available right now.");
    setBusy(false);
  }

  return (
    <div className="flex flex-col gap-4">
      {/* POST, not the default GET: a submit before the script runs must not put the password in the URL (history, logs). */}
      <form method="post" onSubmit={onSubmit} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <Field label="E-mail" htmlFor="email">
          <input id="email" name="email" type="email" autoComplete="username" required className={inputClass()} />
        </Field>
        <Field label="Password" htmlFor="password">
          <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass()} />
        </Field>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" disabled={busy}>
          Sign in
        </Button>
      </form>
      {oidcName ? (
        <Button onClick={onSso} disabled={busy}>
          Sign in with {oidcName}
        </Button>
      ) : null}
      <p className="text-xs text-slate-500">No account? An admin adds you on the Users page (or with `npx benchwork user add`).</p>
    </div>
  );
}
