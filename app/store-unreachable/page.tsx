import Link from "next/link";
import { probeStore } from "@/server/store-probe";

export const metadata = { title: "Database unreachable" };

/**
 * Where proxy.ts sends a page load it could not authenticate because the store cannot be reached
 * (a rewrite: the address bar keeps the page asked for). While the store is down, the probe throws
 * and app/error.tsx says so inside the layout, with "Try again"; once it is back this page says so.
 */
export default async function StoreUnreachablePage() {
  await probeStore();
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-8">
      <h1 className="text-lg font-semibold">The database answers again</h1>
      <p className="mt-2 text-sm text-slate-600">It could not be reached a moment ago. Reload the page to go on.</p>
      <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 hover:underline">
        Back to systems
      </Link>
    </div>
  );
}
