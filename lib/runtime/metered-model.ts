/**
 * A model whose every call is metered and, optionally, gated: before each call it takes a slot of
 * its provider (the per-provider concurrency limit, DESIGN.md §4 step 4) and gives it back when the
 * call returns, so a trial never holds a slot between its calls (tool rounds, judging) and the
 * limit counts calls — the candidate's and the judge's alike. The time spent waiting for a slot is
 * kept apart from the call's own time, which is what a trial's latency reports.
 */
import { wrapLanguageModel, type LanguageModel } from "ai";

/** A slot of one provider's concurrency limit (e.g. a KeyedSemaphore bound to a key). */
export interface CallSlot {
  /**
   * Resolves when a slot is taken.
   * @throws the signal's reason when it aborts while waiting
   */
  acquire(signal?: AbortSignal): Promise<void>;
  release(): void;
}

/** What the calls of a metered model took, in ms (summed over calls). */
export interface CallTiming {
  calls: number;
  /** The calls' own time: request sent to response read (and parsed by the provider). */
  callMs: number;
  /** Time spent waiting for a slot before calls. */
  waitMs: number;
  /** When the call still running started (null when none runs): a timeout cuts a call short. */
  openSince: number | null;
  /** When the wait for a slot still going on began (null when none): a timeout does not count it. */
  waitingSince: number | null;
}

/** A fresh, empty timing. */
export function callTiming(): CallTiming {
  return { calls: 0, callMs: 0, waitMs: 0, openSince: null, waitingSince: null };
}

/**
 * Wraps `model` so each `generate` call waits for `o.slot` (when given) and adds its times to
 * `o.timing` (when given). A model given by id (a string) or an old (V2) model is returned as it
 * is: it cannot be wrapped. Streaming calls are not used by benches and pass through unmetered.
 * @param o.now clock in ms (default `performance.now`)
 * @param o.onCall called as each call starts, once its slot is taken (before the request is sent)
 */
export function meteredModel(model: LanguageModel, o: { slot?: CallSlot | null; timing?: CallTiming; now?: () => number; onCall?: () => void }): LanguageModel {
  // Only a V3 model object can be wrapped (an id string or an old V2 model passes through unmetered).
  if (typeof model === "string" || model.specificationVersion !== "v3" || (!o.slot && !o.timing && !o.onCall)) return model;
  const now = o.now ?? (() => performance.now());
  const { slot, timing, onCall } = o;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      async wrapGenerate({ doGenerate, params }) {
        if (slot) {
          const asked = now();
          if (timing) timing.waitingSince = asked;
          try {
            await slot.acquire(params.abortSignal);
          } finally {
            if (timing) {
              timing.waitMs += now() - asked;
              timing.waitingSince = null;
            }
          }
        }
        onCall?.();
        const started = now();
        if (timing) timing.openSince = started;
        try {
          return await doGenerate();
        } finally {
          if (slot) slot.release();
          if (timing) {
            timing.calls++;
            timing.callMs += now() - started;
            timing.openSince = null;
          }
        }
      },
    },
  });
}
