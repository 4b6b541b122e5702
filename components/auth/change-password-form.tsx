"use client";

/**
 * Change your password (better-auth's endpoint: checks the current one, rate-limited like
 * sign-in). Other sessions end, so a one-time password given out by an admin stops working.
 */
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

export function ChangePasswordForm() {
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const d = new FormData(form);
    const newPassword = String(d.get("newPassword") ?? "");
    if (newPassword.length < 12) {
      setMessage({ tone: "error", text: "Use at least 12 characters." });
      return;
    }
    setBusy(true);
    const res = await fetch("/api/auth/change-password", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ currentPassword: String(d.get("currentPassword") ?? ""), newPassword, revokeOtherSessions: true }),
    }).catch(() => null);
    setBusy(false);
    if (res?.ok) {
      form.reset();
      setMessage({ tone: "ok", text: "Password changed; your other sessions were signed out." });
    } else if (res?.status === 429) setMessage({ tone: "error", text: "Too many attempts. Wait a minute, then try again." });
    else setMessage({ tone: "error", text: res?.status === 400 || res?.status === 401 ? "The current password is wrong." : "The password was not changed." });
  }

  return (
    <form onSubmit={onSubmit} aria-label="Change password" className="flex max-w-3xl flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <Field label="Current password" htmlFor="current-password">
        <input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required className={inputClass()} />
      </Field>
      <Field label="New password" htmlFor="new-password" hint="12 characters or more">
        <input id="new-password" name="newPassword" type="password" autoComplete="new-password" required className={inputClass()} />
      </Field>
      <Button type="submit" disabled={busy}>
        Change password
      </Button>
      {message ? (
        <p role="status" className={`w-full text-sm ${message.tone === "ok" ? "text-emerald-700" : "text-red-700"}`}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
