import Link from "next/link";

/** The side panel's place for "this case was removed / does not exist" messages. */
export function PanelNotice({ title, text, closeHref }: { title: string; text: string; closeHref: string }) {
  return (
    <aside role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-5">
      <h2 className="text-base font-semibold text-amber-900">{title}</h2>
      <p className="mt-2 text-sm text-amber-900">{text}</p>
      <Link href={closeHref} className="mt-4 inline-block text-sm font-medium text-indigo-700 hover:underline">
        Close
      </Link>
    </aside>
  );
}
