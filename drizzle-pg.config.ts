/** drizzle-kit for the PostgreSQL store: `npx drizzle-kit generate --config drizzle-pg.config.ts` (npm run db:generate:pg). */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./db/schema-pg.ts", "./db/schema-pg-queue.ts"],
  out: "./db/migrations-pg",
});
