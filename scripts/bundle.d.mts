/** Types of bundle.mjs. */
export declare const BUNDLE_EXTERNAL: string[];
/**
 * Builds `contents` (TypeScript resolved from `root`) into one ES module in `dir` (default
 * `<root>/node_modules/.cache/benchwork/`; inside `root`) and returns its path.
 */
export declare function bundle(o: { root: string; name: string; contents: string; dir?: string }): Promise<string>;
