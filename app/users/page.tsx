import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listUsers } from "@/db/queries/users";
import { parseRole } from "@/lib/auth/roles";
import { UsersView } from "@/components/auth/users-view";
import { currentActor } from "@/server/auth/actor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const actor = await currentActor();
  if (actor?.role !== "admin") return <p className="text-sm text-slate-700">Only admins manage users.</p>;
  // A server component renders once per request: "live sessions" count from the request's time.
  // eslint-disable-next-line react-hooks/purity
  const users = (await listUsers(getDb(), Date.now())).map((u) => ({ ...u, role: parseRole(u.role), createdAt: u.createdAt.getTime() }));
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Users</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Admins manage users, model configurations and deletions; editors change cases, criteria, prompts, datasets and benches; viewers read everything and
          change nothing.
        </p>
      </div>
      <UsersView users={users} selfId={actor.userId} />
    </div>
  );
}
