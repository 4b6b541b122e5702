/**
 * The page proxy.ts answers a page load with while the store cannot be reached (issue 20), status 503.
 * Self-contained HTML in the look of the app's header, not a rendered page: who asks is unknown (the
 * session lookup failed), and Next.js renders a page's segments even when the layout leaves them out,
 * so passing the request on could serve page data to a visitor without a session should the store
 * answer again a moment later. "Try again" is a link to the same address (no script needed).
 */

/** The HTML of the 503 page (no store name, URL or reason: the server's log has them). */
export function storeUnreachableHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Database unreachable · Benchwork</title></head>
<body style="margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a">
<header style="border-bottom:1px solid #e2e8f0;background:#fff"><div style="max-width:1600px;margin:0 auto;height:48px;display:flex;align-items:center;padding:0 24px;font-weight:600">Benchwork</div></header>
<main style="max-width:1600px;margin:0 auto;padding:24px">
<div role="alert" style="border:1px solid #fecaca;border-radius:8px;background:#fff;padding:32px">
<h1 style="margin:0;font-size:18px">The database cannot be reached</h1>
<p style="margin:8px 0 0;font-size:14px;color:#475569">Benchwork cannot connect to its database: the database server may be down or restarting, or refusing the connection. Nothing stored is lost; the server's log names the store and the reason. Try again once it is back.</p>
<a href="" style="display:inline-block;margin-top:16px;padding:8px 14px;border-radius:6px;background:#4f46e5;color:#fff;font-size:14px;font-weight:500;text-decoration:none">Try again</a>
</div></main></body></html>
`;
}
