// The seed step of `npm start` / `npm run dev` (db/seed/cli.ts: migrate, then seed the demo
// workspace once). In production it runs from its bundle in dist/worker (scripts/worker-bundles.mjs),
// so a start whose build is current never loads esbuild (issue 20); under `npm run dev` the
// TypeScript runs through tsx, as the rest of development does.
import path from "node:path";
import { workerBundle } from "./worker-bundles.mjs";

/**
 * The command that seeds the store.
 * @param {{ dev: boolean, root: string }} o `root`: the project root (the bundles are checked, and
 *   built once when missing or stale, unless `dev`)
 * @returns {Promise<[string, string[]]>} the program and its arguments, run from `root`
 * @throws (rejects) when the bundle has to be built and does not build
 */
export async function seedCommand({ dev, root }) {
  if (dev) return [path.join("node_modules", ".bin", "tsx"), ["db/seed/cli.ts"]];
  return [process.execPath, [await workerBundle(root, "seed")]];
}
