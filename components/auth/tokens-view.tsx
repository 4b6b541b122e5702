"use client";

/** The Tokens page (issue 19): create (scope, optional expiry; secret shown once), list, revoke. */
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { createTokenAction, revokeTokenAction } from "@/app/tokens/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import type { ApiTokenRow } from "@/db/queries/api-tokens";

function status(t: ApiTokenRow, now: number): string {
  if (t.revokedAt !== null) return "revoked";
  if (t.expiresAt !== null && t.expiresAt <= now) return "expired";
  return "active";
}

export function TokensView({ tokens, now }: { tokens: ApiTokenRow[]; now: number }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  function create(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const d = new FormData(form);
    const days = String(d.get("expiresInDays") ?? "").trim();
    start(async () => {
      const r = await createTokenAction({ name: d.get("name"), scope: d.get("scope"), expiresInDays: days === "" ? null : days });
      if (r.ok) {
        setSecret(r.data.token);
        setError(null);
        form.reset();
        router.refresh();
      } else setError(Object.values(r.error.fieldErrors ?? {})[0] ?? r.error.message);
    });
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={create} aria-label="New token" className="flex max-w-3xl flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <div className="min-w-56 flex-1">
          <Field label="Name" htmlFor="token-name" error={error ?? undefined}>
            <input id="token-name" name="name" required maxLength={100} className={inputClass(error ?? undefined)} placeholder="CI nightly bench" />
          </Field>
        </div>
        <Field label="Scope" htmlFor="token-scope">
          <select id="token-scope" name="scope" defaultValue="read" className={inputClass()}>
            <option value="read">read</option>
            <option value="run">run</option>
          </select>
        </Field>
        <Field label="Expires after (days)" htmlFor="token-days" hint="empty = never">
          <input id="token-days" name="expiresInDays" type="number" min={1} max={366} className={inputClass()} />
        </Field>
        <Button type="submit" variant="primary" disabled={pending}>
          Create token
        </Button>
      </form>
      {secret ? (
        <div role="status" className="max-w-3xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          Your new token, shown only now — copy it into your CI&apos;s secrets:{" "}
          <code data-testid="new-token" className="font-mono font-semibold break-all">
            {secret}
          </code>
        </div>
      ) : null}
      <table className="w-full max-w-4xl text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1">Name</th>
            <th>Token</th>
            <th>Scope</th>
            <th>Expires</th>
            <th>Last used</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id} className="border-t border-slate-200" data-testid={`token-${t.name}`}>
              <td className="py-1.5">{t.name}</td>
              <td className="font-mono text-xs">{t.prefix}…</td>
              <td>{t.scope}</td>
              <td>{t.expiresAt === null ? "never" : <LocalTime ms={t.expiresAt} />}</td>
              <td>{t.lastUsedAt === null ? "never" : <LocalTime ms={t.lastUsedAt} />}</td>
              <td>{status(t, now)}</td>
              <td className="text-right">
                {t.revokedAt === null ? (
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={pending}
                    onClick={() =>
                      start(async () => {
                        const r = await revokeTokenAction({ id: t.id });
                        if (r.ok) {
                          toast(`Revoked ${t.name}`);
                          router.refresh();
                        } else toast(r.error.message, "error");
                      })
                    }
                  >
                    Revoke
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
