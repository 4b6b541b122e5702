// Module hooks of forbid-esbuild.mjs: resolving esbuild from an ES module fails.
export async function resolve(specifier, context, next) {
  if (/^esbuild(\/|$)/.test(specifier)) throw new Error(`esbuild was imported by ${context.parentURL ?? "?"}`);
  return next(specifier, context);
}
