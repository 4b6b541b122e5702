/** Types of test-pg.mjs. */
/** Starts npm test's throwaway PostgreSQL cluster and sets env.BENCHWORK_TEST_DATABASE_URL; `stop` undoes both. */
export declare function startTestCluster(env?: Record<string, string | undefined>, log?: (line: string) => void): Promise<{ stop: () => Promise<void> }>;
