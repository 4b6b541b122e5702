/** Types of listen.mjs. */
/**
 * The `next` command line for `npm start` / `npm run dev` (127.0.0.1 unless BENCHWORK_HOST) and the
 * warning to print before it (null on a loopback address).
 * @throws Error when PORT is not a port number (1–65535)
 */
export declare function nextServerCommand(o: { dev: boolean; env: Record<string, string | undefined> }): { args: string[]; warning: string | null };
/**
 * How the server can be reached beyond this machine (a non-loopback BENCHWORK_HOST,
 * BENCHWORK_ALLOWED_HOSTS, a public BENCHWORK_URL), or null when only from here.
 */
export declare function exposure(env: Record<string, string | undefined>): { what: string; variable: string } | null;
/**
 * Why the server must not start (one line), or null: reachable beyond this machine it needs
 * BENCHWORK_AUTH_SECRET (32+ characters) and at least one user.
 */
export declare function exposureRefusal(o: { env: Record<string, string | undefined>; userCount: number }): string | null;
