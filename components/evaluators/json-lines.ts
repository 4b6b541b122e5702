/**
 * Accepted values are typed one per line. A line that parses as JSON is that JSON value
 * (`10`, `true`, `"10"`, `[1, 2]`); any other line is taken as text (`returns`).
 */
export function parseValueLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return l;
      }
    });
}

/** The inverse of {@link parseValueLines}: strings that do not look like JSON are written bare. */
export function formatValueLines(values: unknown[] | undefined): string {
  return (values ?? [])
    .map((v) => {
      if (typeof v !== "string") return JSON.stringify(v);
      let looksJson = false;
      try {
        JSON.parse(v);
        looksJson = true;
      } catch {
        /* bare text */
      }
      return looksJson || v === "" || v.trim() !== v || v.includes("\n") ? JSON.stringify(v) : v;
    })
    .join("\n");
}
