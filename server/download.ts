/** File responses of the export route handlers (CSV / JSONL with Content-Disposition). */

/**
 * A safe download file name: path separators, control characters and quotes removed, spaces kept.
 * @param name the wanted name
 */
export function downloadName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f/\\"]+/g, "_").trim();
  return clean || "export";
}

/**
 * A file download response.
 * @param text the file content
 * @param fileName the file name offered to the browser (ASCII fallback plus RFC 5987 UTF-8 name)
 * @param contentType e.g. `text/csv; charset=utf-8`
 */
export function fileResponse(text: string, fileName: string, contentType: string): Response {
  const name = downloadName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_");
  return new Response(text, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Export formats and their content types. */
export const EXPORT_TYPES = { csv: "text/csv; charset=utf-8", jsonl: "application/jsonl; charset=utf-8" } as const;

/** The `format` search parameter: `csv` (default) or `jsonl`; null for anything else. */
export function exportFormat(url: URL): keyof typeof EXPORT_TYPES | null {
  const f = (url.searchParams.get("format") ?? "csv").toLowerCase();
  return f === "csv" || f === "jsonl" ? f : null;
}
