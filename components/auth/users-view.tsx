"use client";

/** The Users page (issue 19): add with a role (one-time password shown once), change role, remove, sign out everywhere. */
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { addUserAction, changeRoleAction, removeUserAction, signOutUserAction } from "@/app/users/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { ROLES, type Role } from "@/lib/auth/roles";

export interface UserItem {
  id: string;
  email: string;
  role: Role;
  createdAt: number;
  activeSessions: number;
}

export function UsersView({ users, selfId }: { users: UserItem[]; selfId: string }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);

  function add(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    start(async () => {
      const r = await addUserAction({ email: data.get("email"), role: data.get("role") });
      if (r.ok) {
        setCreated(r.data);
        setError(null);
        form.reset();
        router.refresh();
      } else setError(r.error.fieldErrors?.email ?? r.error.message);
    });
  }

  function run(label: string, fn: () => Promise<{ ok: true } | { ok: false; error: { message: string } }>) {
    start(async () => {
      const r = await fn();
      if (r.ok) {
        toast(label);
        router.refresh();
      } else toast(r.error.message, "error");
    });
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={add} className="flex max-w-2xl flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Add a user">
        <div className="min-w-64 flex-1">
          <Field label="E-mail" htmlFor="new-user-email" error={error ?? undefined}>
            <input id="new-user-email" name="email" type="email" required className={inputClass(error ?? undefined)} />
          </Field>
        </div>
        <Field label="Role" htmlFor="new-user-role">
          <select id="new-user-role" name="role" defaultValue="viewer" className={inputClass()}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" variant="primary" disabled={pending}>
          Add user
        </Button>
      </form>
      {created ? (
        <div role="status" className="max-w-2xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          Added {created.email}. One-time password, shown only now — pass it on privately:{" "}
          <code data-testid="one-time-password" className="font-mono font-semibold">
            {created.password}
          </code>
        </div>
      ) : null}
      <table className="w-full max-w-4xl text-left text-sm">
        <thead className="text-xs text-slate-500">
          <tr>
            <th className="py-1">E-mail</th>
            <th>Role</th>
            <th>Sessions</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} className="border-t border-slate-200" data-testid={`user-${u.email}`}>
              <td className="py-1.5">
                {u.email}
                {u.id === selfId ? <span className="text-slate-500"> (you)</span> : null}
              </td>
              <td>
                <select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={pending}
                  className="rounded border border-slate-300 px-1 py-0.5"
                  onChange={(e) => run(`${u.email} is now ${e.target.value}`, () => changeRoleAction({ userId: u.id, role: e.target.value }))}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </td>
              <td>{u.activeSessions}</td>
              <td className="flex justify-end gap-2 py-1">
                <Button size="sm" disabled={pending} onClick={() => run(`Signed ${u.email} out everywhere`, () => signOutUserAction({ userId: u.id }))}>
                  Sign out everywhere
                </Button>
                {u.id !== selfId ? (
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={pending}
                    onClick={() => {
                      if (window.confirm(`Remove ${u.email}? Their sessions and API tokens end; what they authored stays.`))
                        run(`Removed ${u.email}`, () => removeUserAction({ userId: u.id }));
                    }}
                  >
                    Remove
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
