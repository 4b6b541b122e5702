/** Types of worker-bundles.mjs. */
/** The bundles built ahead of time, by name: the TypeScript entry each is built from. */
export declare const WORKER_BUNDLES: Record<string, string>;
/** What the bundles are built from (relative to the project root). */
export declare const BUNDLE_SOURCES: string[];
/** The bundles' folder, relative to the project root. */
export declare const BUNDLE_DIR: string;
/** Builds every bundle into `<root>/dist/worker/` with the stamp of its sources; resolves each bundle's path by name. */
export declare function buildWorkerBundles(o: { root: string; bundles?: Record<string, string>; sources?: readonly string[] }): Promise<Record<string, string>>;
/** The paths of the bundles `names` (default all), those missing or older than their sources built first (saying so on one line). */
export declare function ensureWorkerBundles(o: {
  root: string;
  names?: readonly string[];
  bundles?: Record<string, string>;
  sources?: readonly string[];
  log?: (line: string) => void;
}): Promise<Record<string, string>>;
/** Some bundles' paths, each checked (and built when needed) once per process. */
export declare function workerBundles(root: string, names: readonly string[]): Promise<Record<string, string>>;
/** One bundle's path, checked (and built when needed) once per process. */
export declare function workerBundle(root: string, name: string): Promise<string>;
