/** The Reruns panel's sentences (issue #16 §3; issue 18's advisory criteria), kept pure so they are unit-tested. */

const n = (v: number) => v.toLocaleString("en-US");

/**
 * What the suspected regressions a confirm round would rerun do to the gate: those on advisory
 * criteria are shown but never block, so the sentence must not say they do.
 * @param targets suspected regressions the confirm round reruns
 * @param blocking of those, the ones not on an advisory criterion
 */
export function suspectedSentence(targets: number, blocking: number): string {
  const advisory = targets - blocking;
  const them = (k: number) => (k === 1 ? "it" : "them");
  const regs = (k: number) => `${n(k)} suspected regression${k === 1 ? "" : "s"}`;
  if (advisory === 0) return `${regs(targets)} block${targets === 1 ? "s" : ""} until a rerun confirms or clears ${them(targets)}.`;
  if (blocking === 0)
    return `${regs(targets)} on ${targets === 1 ? "an advisory criterion (it does" : "advisory criteria (they do"} not block); a rerun confirms or clears ${them(targets)}.`;
  return (
    `${regs(targets)}: ${n(blocking)} block${blocking === 1 ? "s" : ""} until a rerun confirms or clears ${them(blocking)}; ` +
    `${n(advisory)} on ${advisory === 1 ? "an advisory criterion does" : "advisory criteria do"} not block.`
  );
}

/** The confirm dialog's button: "Run 1 trial", "Run 6 trials". */
export function runLabel(trials: number): string {
  return `Run ${n(trials)} trial${trials === 1 ? "" : "s"}`;
}

/** The toast once a rerun's trials are added: "Added 1 trial to the bench; it runs it now". */
export function rerunAddedText(trials: number): string {
  return `Added ${n(trials)} trial${trials === 1 ? "" : "s"} to the bench; it runs ${trials === 1 ? "it" : "them"} now`;
}

/**
 * Whether a refused rerun means the page shows a bench state that is no longer true, so it must
 * re-read it: the bench is no longer finished (another tab's rerun started first) or is gone. A
 * refusal naming a field (the spend cap the dialog asks for) leaves the page as it is.
 * @param error the server action's error
 */
export function refreshAfterRefusal(error: { code: string; message: string; fieldErrors?: Record<string, unknown> }): boolean {
  if (error.fieldErrors && Object.keys(error.fieldErrors).length) return false;
  return error.code === "not_allowed" || error.code === "not_found";
}
