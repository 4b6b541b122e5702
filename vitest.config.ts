import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: [
      "lib/**/*.test.ts",
      "db/**/*.test.ts",
      "cli/**/*.test.ts",
      "app/**/*.test.ts",
      "components/**/*.test.ts",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
  },
});
