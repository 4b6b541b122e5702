/**
 * What a page that could not be shown says. `unreachable`: the store cannot be reached (the root
 * layout renders it in the app's chrome, flagged by proxy.ts or from its own failed query). Otherwise
 * a server error (app/error.tsx, app/global-error.tsx): production Next.js sends the browser only its
 * digest, never its message or stack, and the digest is the reference to find it in the server's log.
 * Never shows a URL, password or stack.
 */
export function ErrorNotice({ unreachable = false, digest, onRetry }: { unreachable?: boolean; digest?: string; onRetry: () => void }) {
  return (
    <div role="alert" data-testid="error-notice" className="rounded-lg border border-red-200 bg-white p-8">
      <h1 className="text-lg font-semibold text-slate-900">{unreachable ? "The database cannot be reached" : "Something went wrong on the server"}</h1>
      <p className="mt-2 text-sm text-slate-600">
        {unreachable
          ? "Benchwork cannot connect to its database: the database server may be down or restarting, or refusing the connection. Nothing stored is lost; the server's log names the store and the reason. Try again once it is back."
          : "This page could not be shown. The server's log has the details"}
        {!unreachable && digest ? (
          <>
            {" "}
            (reference <code>{digest}</code>).
          </>
        ) : !unreachable ? (
          "."
        ) : null}
      </p>
      <button
        type="button"
        onClick={onRetry}
        className="mt-4 inline-flex h-9 items-center rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white hover:bg-indigo-700"
      >
        Try again
      </button>
    </div>
  );
}
