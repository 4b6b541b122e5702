/** Types of bundle.mjs. */
export declare const BUNDLE_EXTERNAL: string[];
/**
 * Builds `contents` (TypeScript resolved from `root`) into one ES module under
 * `<root>/node_modules/.cache/benchwork/` and returns its path.
 */
export declare function bundle(o: { root: string; name: string; contents: string }): Promise<string>;
