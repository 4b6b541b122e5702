import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getSystem } from "@/db/queries/systems";
import { SystemNav } from "@/components/library/system-nav";

export default async function SystemLayout({ children, params }: { children: React.ReactNode; params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  const system = await getSystem(getDb(), systemId);
  if (!system) notFound();
  return (
    <div className="flex flex-col gap-4">
      <div>
        <nav aria-label="Breadcrumb" className="text-xs text-slate-500">
          <Link href="/" className="hover:text-slate-800">
            Systems
          </Link>{" "}
          / <span className="text-slate-700">{system.name}</span>
        </nav>
        <h1 className="mt-1 text-xl font-semibold">{system.name}</h1>
        {system.description ? <p className="mt-0.5 max-w-3xl text-sm text-slate-600">{system.description}</p> : null}
      </div>
      <SystemNav systemId={system.id} />
      {children}
    </div>
  );
}
