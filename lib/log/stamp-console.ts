/**
 * Puts the time (UTC, ISO 8601, e.g. "2026-12-03T01:02:03.456Z") before every line a long-running
 * process writes through `console` (a job worker: its outage, retirement and bench lines are read
 * long after, beside other workers' and PostgreSQL's own logs).
 * @param target the console to change (default the global one)
 * @param now the clock
 */
export function stampConsole(target: Pick<Console, "log" | "info" | "warn" | "error"> = console, now: () => Date = () => new Date()): void {
  for (const method of ["log", "info", "warn", "error"] as const) {
    const write = target[method].bind(target);
    target[method] = (...args: unknown[]) => write(now().toISOString(), ...args);
  }
}
