#!/usr/bin/env node
// The `benchwork` command. Loads the TypeScript entry point through tsx (a well-kept loader).
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../tsconfig.json", import.meta.url).pathname });
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv.slice(2));
