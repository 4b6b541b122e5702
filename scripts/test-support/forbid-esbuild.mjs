// Test preload (`node --import ./scripts/test-support/forbid-esbuild.mjs …`): any import or require
// of esbuild in this process or its threads fails, naming who asked. Proves that a worker started
// on current bundles never loads esbuild (issue 20).
import Module, { register } from "node:module";

register("./forbid-esbuild-hooks.mjs", import.meta.url);

const forbidden = /^esbuild(\/|$)/;
const load = Module._load;
Module._load = function (request, parent, ...rest) {
  if (forbidden.test(request)) throw new Error(`esbuild was required by ${parent?.filename ?? "?"}`);
  return load.call(this, request, parent, ...rest);
};
