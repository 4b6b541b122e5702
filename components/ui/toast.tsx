"use client";

import { createContext, useCallback, useContext, useState } from "react";

type Toast = { id: number; text: string; tone: "ok" | "error" };
const ToastContext = createContext<(text: string, tone?: "ok" | "error") => void>(() => {});

/**
 * Shows short confirmations ("Saved revision 3") in a polite live region at the bottom right.
 * Clicks go through a toast to what is under it (a list's last rows sit there); an error stays
 * 8 s instead of 4 and has a close button, so a long message can be read or put away.
 */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const push = useCallback(
    (text: string, tone: "ok" | "error" = "ok") => {
      const id = Date.now() + Math.random();
      setToasts((t) => [...t, { id, text, tone }]);
      setTimeout(() => dismiss(id), tone === "error" ? 8000 : 4000);
    },
    [dismiss],
  );
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div aria-live="polite" role="status" className="pointer-events-none fixed right-4 bottom-4 z-50 flex flex-col gap-2">
        {toasts.map((t) => (
          <div
            key={t.id}
            className={`flex max-w-md items-start gap-3 rounded-md px-4 py-2 text-sm shadow-lg ${t.tone === "ok" ? "bg-slate-900 text-white" : "bg-red-600 text-white"}`}
          >
            <span className="min-w-0 break-words">{t.text}</span>
            {t.tone === "error" && (
              <button
                type="button"
                onClick={() => dismiss(t.id)}
                aria-label="Dismiss"
                className="pointer-events-auto -mr-1 shrink-0 rounded px-1 leading-5 hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-white"
              >
                ×
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `const toast = useToast(); toast("Saved")`. */
export function useToast() {
  return useContext(ToastContext);
}
