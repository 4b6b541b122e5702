#!/usr/bin/env node
// The `benchwork` command. Loads the TypeScript entry point through tsx (a well-kept loader).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// Migrations, demo data and the trial threads' code are found from the project root, wherever the
// command is run from (an empty value counts as unset).
process.env.BENCHWORK_ROOT ||= fileURLToPath(new URL("..", import.meta.url));

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2));
