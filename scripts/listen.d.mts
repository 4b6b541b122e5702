/** Types of listen.mjs. */
/**
 * The `next` command line for `npm start` / `npm run dev` (127.0.0.1 unless BENCHWORK_HOST) and the
 * warning to print before it (null on a loopback address).
 * @throws Error when PORT is not a port number (1–65535)
 */
export declare function nextServerCommand(o: { dev: boolean; env: Record<string, string | undefined> }): { args: string[]; warning: string | null };
