import Link from "next/link";

/** "Showing 11–20 of 502", previous/next and a few page numbers around the current one. */
export function Pager({
  page,
  pageCount,
  total,
  pageSize,
  hrefFor,
  keepScroll = false,
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  hrefFor: (n: number) => string;
  /** Keep the scroll position (a pager below other content, e.g. the results matrix). */
  keepScroll?: boolean;
}) {
  if (total === 0) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  const nums = new Set<number>([1, pageCount, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= pageCount));
  const sorted = [...nums].sort((a, b) => a - b);
  const link = "inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm";
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600">
      <span>
        Showing {from.toLocaleString("en-US")}–{to.toLocaleString("en-US")} of {total.toLocaleString("en-US")} · page {page} of{" "}
        {pageCount.toLocaleString("en-US")}
      </span>
      <div className="flex items-center gap-1">
        {page > 1 ? (
          <Link scroll={!keepScroll} href={hrefFor(page - 1)} className={`${link} hover:bg-slate-100`} rel="prev">
            ‹ Previous
          </Link>
        ) : (
          <span className={`${link} text-slate-300`}>‹ Previous</span>
        )}
        {sorted.map((n, i) => (
          <span key={n} className="flex items-center">
            {i > 0 && n - sorted[i - 1] > 1 ? <span className="px-1 text-slate-400">…</span> : null}
            {n === page ? (
              <span aria-current="page" className={`${link} bg-indigo-600 font-medium text-white`}>
                {n}
              </span>
            ) : (
              <Link scroll={!keepScroll} href={hrefFor(n)} className={`${link} hover:bg-slate-100`} aria-label={`Page ${n}`}>
                {n}
              </Link>
            )}
          </span>
        ))}
        {page < pageCount ? (
          <Link scroll={!keepScroll} href={hrefFor(page + 1)} className={`${link} hover:bg-slate-100`} rel="next">
            Next ›
          </Link>
        ) : (
          <span className={`${link} text-slate-300`}>Next ›</span>
        )}
      </div>
    </nav>
  );
}
