import Link from "next/link";
import { getDb } from "@/db/client";
import { listSystems } from "@/db/queries/systems";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const systems = await listSystems(getDb());
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-xl font-semibold">Systems</h1>
        <p className="mt-1 text-sm text-slate-600">
          Each system keeps a test library of cases and criteria per prompt. Open one to browse, edit and add cases.
        </p>
      </div>
      {systems.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          No systems yet. Run <code className="rounded bg-slate-100 px-1">npm run db:seed</code> to load the demo workspace.
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {systems.map((s) => (
            <li key={s.id}>
              <Link
                href={`/systems/${s.id}/library`}
                className="flex h-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5 shadow-xs transition hover:border-indigo-300 hover:shadow-sm"
              >
                <span className="text-base font-semibold text-slate-900">{s.name}</span>
                <span className="line-clamp-3 text-sm text-slate-600">{s.description}</span>
                <span className="mt-auto pt-2 text-xs text-slate-500">
                  {s.promptCount} prompt{s.promptCount === 1 ? "" : "s"} · {s.caseCount.toLocaleString("en-US")} case{s.caseCount === 1 ? "" : "s"}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
