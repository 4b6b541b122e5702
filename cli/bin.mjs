#!/usr/bin/env node
// The `benchwork` command. It runs cli/main.ts from its bundle, built ahead with the worker's
// (scripts/worker-bundles.mjs: `npm install`'s last step and `npm run build` build them), so that
// the command starts from plain JavaScript without esbuild or tsx (issue 20). A missing bundle, or
// one older than its sources (a development checkout), is rebuilt once, with a line on standard
// error saying so (for the bundles its commands use too): standard output is the command's (`--json`).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { logBundleBuildsTo, workerBundles } from "../scripts/worker-bundles.mjs";

/** The project the command belongs to: its bundle is built from, and into, this folder. */
const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));

// Migrations, demo data and the trial threads' code are found from the project root, wherever the
// command is run from (an empty value counts as unset).
process.env.BENCHWORK_ROOT ||= root;

// A reader that goes away early (`benchwork run … | head`) must not crash the command: the cases
// still run, the JSON is still written and the exit code still says how they went; only what would
// have been printed to that pipe is lost. Other stream errors stay fatal.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e.code !== "EPIPE") throw e;
  });
}

logBundleBuildsTo((line) => console.error(line));
const { cli } = await workerBundles(root, ["cli"]);
const { main } = await import(pathToFileURL(cli).href);
const code = await main(process.argv.slice(2));

/** Resolves once everything written to `stream` so far has been handed to the system (or the stream failed). */
const drained = (stream) => new Promise((resolve) => stream.write("", () => resolve()));

// The command is done and its results are out. Whatever the benchmark's own code left running — a
// tool that ignored a timed-out case's abort signal, a timer, an open socket — must not hold the
// process (and CI) any longer: flush the output, then exit with the command's code.
await Promise.all([drained(process.stdout), drained(process.stderr)]);
process.exit(code);
