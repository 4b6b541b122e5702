"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { ActionError } from "@/lib/shell/result";
import type { UploadAccepted } from "@/lib/datasets/types";
import { formatBytes, formatCount } from "@/lib/import/errors";
import { Button } from "@/components/ui/button";

/** File types the importer reads. */
export const ACCEPTED_FILES = ".csv,.tsv,.txt,.xlsx,.json,.jsonl";

/**
 * Upload cases: pick (or drop) a file; it is sent to the upload route handler, parsed on the
 * server, and — when accepted — opened in Map and preview. A refused file is never stored; the
 * message says why (too large, corrupt, …).
 */
export function UploadForm({ systemId, maxBytes }: { systemId: string; maxBytes: number }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const choose = (f: File | null) => {
    setError(null);
    setFile(f);
    if (f && f.size > maxBytes) {
      setError(
        `${f.name} is ${formatBytes(f.size)} (${formatCount(f.size)} bytes); the limit is ${formatBytes(maxBytes)} (${formatCount(maxBytes)} bytes). Split the file or remove rows, then upload it again.`,
      );
    }
  };

  const upload = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError("Choose a file first.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/systems/${encodeURIComponent(systemId)}/uploads?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        body: file,
        headers: { "Content-Type": "application/octet-stream" },
      });
      const body = (await res.json().catch(() => null)) as { ok: true; data: UploadAccepted } | { ok: false; error: ActionError } | null;
      if (!body) setError(`The server answered ${res.status} without a readable reply. Nothing was stored; try again.`);
      else if (!body.ok) setError(body.error.message);
      else {
        router.push(body.data.href);
        return;
      }
    } catch {
      setError("The upload did not reach the server (network error). Nothing was stored; try again.");
    }
    setBusy(false);
  };

  return (
    <form onSubmit={upload} className="flex flex-col gap-4" noValidate>
      <label
        htmlFor="upload-file"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          choose(e.dataTransfer.files[0] ?? null);
        }}
        className={`flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed px-6 py-10 text-center ${dragging ? "border-indigo-400 bg-indigo-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100"}`}
      >
        <span className="text-sm font-medium text-slate-800">{file ? file.name : "Choose a file or drop it here"}</span>
        <span className="text-xs text-slate-500">
          {file
            ? file.size < 1024
              ? formatBytes(file.size)
              : `${formatBytes(file.size)} (${formatCount(file.size)} bytes)`
            : "CSV or TSV, Excel workbook (.xlsx), JSON (an array of objects) or JSON Lines"}
        </span>
        <input
          ref={input}
          id="upload-file"
          name="file"
          type="file"
          accept={ACCEPTED_FILES}
          aria-describedby={error ? "upload-error" : undefined}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          className="mt-2 text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
        />
      </label>
      {error ? (
        <p id="upload-error" role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={busy || !file || file.size > maxBytes}>
          {busy ? "Reading the file…" : "Upload and map columns"}
        </Button>
        <span className="text-xs text-slate-500">Uploading stores nothing in the library and starts no evaluation.</span>
      </div>
    </form>
  );
}
