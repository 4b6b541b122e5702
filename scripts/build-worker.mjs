#!/usr/bin/env node
// Second half of `npm run build` (after `next build`): the worker's bundles (`npm run worker`, the
// trial threads) into dist/worker/ with the stamp of their sources (scripts/worker-bundles.mjs), so
// that production starts them without esbuild.
import { buildWorkerBundles, BUNDLE_DIR } from "./worker-bundles.mjs";

const started = Date.now();
try {
  const files = await buildWorkerBundles({ root: process.cwd() });
  console.log(`benchwork: built the worker's bundles (${Object.keys(files).join(", ")}) into ${BUNDLE_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`benchwork: the worker's bundles did not build:\n${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
