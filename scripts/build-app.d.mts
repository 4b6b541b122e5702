/** Types of build-app.mjs. */
/**
 * `npm start`'s build step: `next build` without Next's type-check (BENCHWORK_BUILD_TYPECHECK=0),
 * saying what it does, roughly how long it takes, and every 30 s that it is still working.
 * @returns next build's exit code
 */
export declare function buildApp(o?: {
  run?: (cmd: string, args: string[], env: Record<string, string | undefined>) => Promise<number>;
  log?: (line: string) => void;
  now?: () => number;
  every?: (ms: number, fn: () => void) => () => void;
  env?: Record<string, string | undefined>;
}): Promise<number>;
