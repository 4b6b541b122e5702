/**
 * The spend figures the progress poll reads, passed from the progress bar (which polls) to the spend
 * line under the bench's title (which renders on the server once per page load or refresh): issue #16,
 * the line said "spent $0.00" while 12 trials were done.
 */
import { useEffect, useState } from "react";
import type { SpendFigures } from "@/server/bench/progress-poll";

type Listener = (benchId: number, spend: SpendFigures) => void;
const listeners = new Set<Listener>();

/** Tells the spend lines on the page what bench `benchId` has spent (the progress bar, on each poll). */
export function publishSpend(benchId: number, spend: SpendFigures): void {
  for (const l of listeners) l(benchId, spend);
}

/**
 * Bench `benchId`'s spend figures: the latest the progress poll published, or `initial` (the
 * server's render) until it does and again after each refresh of the page hands a new one.
 */
export function useLiveSpend(benchId: number, initial: SpendFigures): SpendFigures {
  const [state, setState] = useState({ initial, spend: initial });
  // A refresh of the page brings the server's figures: they replace what the poll said before.
  if (state.initial !== initial) setState({ initial, spend: initial });
  useEffect(() => {
    const l: Listener = (id, spend) => {
      if (id === benchId) setState((s) => ({ ...s, spend }));
    };
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, [benchId]);
  return state.initial === initial ? state.spend : initial;
}
