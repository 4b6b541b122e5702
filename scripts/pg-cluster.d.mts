/** Types of pg-cluster.mjs. */
/** The folder holding PostgreSQL's server binaries (BENCHWORK_PG_BIN, pg_config, Debian's layout), or null. */
export declare function findPgBin(env?: Record<string, string | undefined>): string | null;
/** What to say when the binaries are missing. */
export declare const MISSING_PG_MESSAGE: string;
/**
 * Starts a throwaway cluster (initdb into a temp folder, postgres on a free loopback port).
 * @throws when the binaries are missing or initdb/postgres fail
 */
export declare function startCluster(options?: { bin?: string; database?: string }): Promise<{
  url: string;
  adminUrl: string;
  port: number;
  dir: string;
  stop: () => Promise<void>;
}>;
