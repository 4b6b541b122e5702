"use client";

import { AlertDialog } from "radix-ui";
import { Button } from "./button";

/** A modal confirmation (Escape cancels, focus starts on Cancel). */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  onOpenChange,
  confirmDisabled = false,
  cancelLabel = "Cancel",
}: {
  trigger: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Called when the dialog opens or closes (e.g. to load what it shows). */
  onOpenChange?: (open: boolean) => void;
  /** The confirm button is disabled (e.g. until what the dialog shows has loaded). */
  confirmDisabled?: boolean;
  /** The label of the button that closes the dialog without acting ("Keep running" when the action itself is a cancel). */
  cancelLabel?: string;
}) {
  return (
    <AlertDialog.Root onOpenChange={onOpenChange}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,480px)] -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-5 shadow-xl">
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm text-slate-600">{description}</div>
          </AlertDialog.Description>
          <div className="mt-5 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button>{cancelLabel}</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="danger" onClick={onConfirm} disabled={confirmDisabled}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
