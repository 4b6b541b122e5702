#!/usr/bin/env node
// The `benchwork` command. Loads the TypeScript entry point through tsx (a well-kept loader).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// Migrations, demo data and the trial threads' code are found from the project root, wherever the
// command is run from (an empty value counts as unset).
process.env.BENCHWORK_ROOT ||= fileURLToPath(new URL("..", import.meta.url));

// A reader that goes away early (`benchwork run … | head`) must not crash the command: the cases
// still run, the JSON is still written and the exit code still says how they went; only what would
// have been printed to that pipe is lost. Other stream errors stay fatal.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e.code !== "EPIPE") throw e;
  });
}

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./main.ts");
const code = await main(process.argv.slice(2));

/** Resolves once everything written to `stream` so far has been handed to the system (or the stream failed). */
const drained = (stream) => new Promise((resolve) => stream.write("", () => resolve()));

// The command is done and its results are out. Whatever the benchmark's own code left running — a
// tool that ignored a timed-out case's abort signal, a timer, an open socket — must not hold the
// process (and CI) any longer: flush the output, then exit with the command's code.
await Promise.all([drained(process.stdout), drained(process.stderr)]);
process.exit(code);
