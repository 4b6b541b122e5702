/**
 * Decides whether the production build in .next is current: a fingerprint of the sources that go
 * into `next build` (paths, sizes and modification times) is stored next to the build.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOTS = [
  "app",
  "components",
  "lib",
  "db",
  "server",
  "public",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "proxy.ts",
  "next.config.ts",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
];
const SKIP = new Set(["node_modules", ".next", "migrations", "data", "fixtures"]);
const STAMP = path.join(".next", "benchwork-build-fingerprint");

function walk(p, out) {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const name of readdirSync(p).sort()) if (!SKIP.has(name) && !name.endsWith(".test.ts")) walk(path.join(p, name), out);
  } else out.push(`${p}:${st.size}:${Math.floor(st.mtimeMs)}`);
}

/**
 * Fingerprint of the files under `roots` (folders or files, relative to `root`): their paths, sizes
 * and modification times, without tests, dependencies, migrations and data.
 * @param {string} root
 * @param {readonly string[]} roots
 * @returns {string} a hex digest
 */
export function fingerprintOf(root, roots) {
  const out = [];
  for (const r of roots) walk(path.join(root, r), out);
  return createHash("sha256").update(out.join("\n")).digest("hex");
}

/** Fingerprint of the build inputs under `root`. */
export function sourceFingerprint(root = process.cwd()) {
  return fingerprintOf(root, ROOTS);
}

/** True when .next holds a production build of the current sources. */
export function buildIsCurrent() {
  if (!existsSync(path.join(".next", "BUILD_ID")) || !existsSync(STAMP)) return false;
  return readFileSync(STAMP, "utf8").trim() === sourceFingerprint();
}

/** Records that .next now holds a build of the current sources. */
export function markBuilt() {
  writeFileSync(STAMP, sourceFingerprint() + "\n");
}
