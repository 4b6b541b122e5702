"use client";

import { useState, useTransition } from "react";
import { correctVersionAction } from "@/app/systems/[systemId]/datasets/actions";
import { Button } from "@/components/ui/button";

/**
 * Correct in a new version: opens Map and preview on this version's original file with its
 * mapping, corrections and exclusions; saving there makes the next version (this one never changes).
 */
export function CorrectVersionButton({
  systemId,
  datasetId,
  version,
  label = "Correct in a new version",
  size = "sm",
}: {
  systemId: string;
  datasetId: number;
  version: number;
  label?: string;
  size?: "sm" | "md";
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col gap-1">
      <Button
        size={size}
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const r = await correctVersionAction({ systemId, datasetId, version });
            if (r && !r.ok) setError(r.error.message);
          })
        }
      >
        {pending ? "Opening…" : label}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
