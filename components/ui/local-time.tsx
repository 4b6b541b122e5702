"use client";

import { useHydrated } from "./use-hydrated";

/**
 * A timestamp (ms since epoch) in the reader's time zone. The server renders UTC; the browser
 * re-renders in local time after hydration.
 */
export function LocalTime({ ms, withTime = true, compact = false }: { ms: number; withTime?: boolean; compact?: boolean }) {
  const local = useHydrated();
  const d = new Date(ms);
  const sameYear = local && d.getFullYear() === new Date().getFullYear();
  const text = local
    ? compact
      ? d.toLocaleString(undefined, { month: "short", day: "numeric", ...(sameYear ? {} : { year: "numeric" }), hour: "2-digit", minute: "2-digit" })
      : d.toLocaleString(undefined, withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" })
    : d
        .toISOString()
        .slice(0, withTime ? 16 : 10)
        .replace("T", " ") + (withTime ? " UTC" : "");
  return <time dateTime={d.toISOString()}>{text}</time>;
}
