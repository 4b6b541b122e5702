import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native addons and binaries stay out of the server bundle (esbuild builds the trial threads when their bundle is stale).
  serverExternalPackages: ["better-sqlite3", "quickjs-emscripten", "@jitl/quickjs-wasmfile-release-sync", "esbuild"],
  typedRoutes: false,
  // Security headers (CSP with a nonce, framing, nosniff, referrer) come from proxy.ts.
  poweredByHeader: false,
  // `npm start` builds with BENCHWORK_BUILD_TYPECHECK=0: Next's type-check was over half of the first
  // start on two cores, and `npm test` / `npm run typecheck` run tsc anyway. `npm run build` keeps it.
  typescript: { ignoreBuildErrors: process.env.BENCHWORK_BUILD_TYPECHECK === "0" },
  experimental: {
    serverActions: { bodySizeLimit: "1mb" },
  },
};

export default nextConfig;
