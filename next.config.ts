import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // better-sqlite3 is a native addon: keep it out of the server bundle.
  serverExternalPackages: ["better-sqlite3", "quickjs-emscripten", "@jitl/quickjs-wasmfile-release-sync"],
  typedRoutes: false,
  experimental: {
    serverActions: { bodySizeLimit: "1mb" },
  },
};

export default nextConfig;
