import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native addons and binaries stay out of the server bundle (esbuild bundles the trial threads at run time).
  serverExternalPackages: ["better-sqlite3", "quickjs-emscripten", "@jitl/quickjs-wasmfile-release-sync", "esbuild"],
  typedRoutes: false,
  // Security headers (CSP with a nonce, framing, nosniff, referrer) come from proxy.ts.
  poweredByHeader: false,
  experimental: {
    serverActions: { bodySizeLimit: "1mb" },
  },
};

export default nextConfig;
