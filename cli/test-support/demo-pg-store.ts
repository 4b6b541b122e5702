/**
 * For a `describePg` suite that runs `benchwork` commands on PostgreSQL: a fresh database seeded
 * with the demo workspace, named by `BENCHWORK_DATABASE_URL` while the suite runs.
 */
import { closeStore, openPgStore } from "@/db/pg/store";
import { useTestDatabaseAsStore } from "@/db/pg/test-support/database";
import { seedDemoWorkspace } from "@/db/seed/demo";

/** @returns a function giving the database's URL (once the suite has started) */
export function useDemoPgStore(): () => string {
  return useTestDatabaseAsStore(async (url) => {
    const db = openPgStore(url, 2);
    try {
      await seedDemoWorkspace(db);
    } finally {
      await closeStore(db);
    }
  });
}
