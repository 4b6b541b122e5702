"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Escape goes to `href` (closes a panel that is its own URL, like the trial view), unless focus is
 * in a field or a dialog is open, where Escape already means something else.
 */
export function CloseOnEscape({ href }: { href: string }) {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest("input, textarea, select, [contenteditable=true], [role=dialog], [role=alertdialog]")) return;
      if (document.querySelector("[role=dialog], [role=alertdialog]")) return;
      router.push(href, { scroll: false });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [href, router]);
  return null;
}
