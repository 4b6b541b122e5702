import Link from "next/link";

export default function NotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-8">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-slate-600">There is nothing at this address. It may have been removed, or the link may be mistyped.</p>
      <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 hover:underline">
        Back to systems
      </Link>
    </div>
  );
}
