import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./db/schema.ts", "./db/schema-sqlite-queue.ts"],
  out: "./db/migrations",
});
