import Link from "next/link";

/** Title row of a Datasets page: optional back link, heading, optional actions on the right. */
export function PageTitle({
  title,
  back,
  children,
  actions,
}: {
  title: string;
  back?: { href: string; label: string };
  children?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        {back ? (
          <Link href={back.href} className="text-xs text-indigo-700 hover:underline">
            ‹ {back.label}
          </Link>
        ) : null}
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {children ? <div className="mt-0.5 text-sm text-slate-600">{children}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
