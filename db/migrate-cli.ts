/**
 * `npm run db:migrate`: applies pending migrations to the store: PostgreSQL when
 * `BENCHWORK_DATABASE_URL=postgres://…` is set (db/migrations-pg), else SQLite at `BENCHWORK_DB`
 * (default data/benchwork.db, db/migrations).
 */
import { databasePath, migrateDatabase, openDatabase } from "./client";
import { exitIfUnreachable, migratePostgres, postgresUrl } from "./pg/client";

const url = postgresUrl();
if (url) {
  // A store it cannot reach: the error's one line (store, PostgreSQL's reason), no stack (README).
  await migratePostgres(url).catch(exitIfUnreachable("benchwork"));
  console.log(`migrated ${new URL(url).host}${new URL(url).pathname} (PostgreSQL)`);
} else {
  const file = databasePath();
  const db = openDatabase(file);
  migrateDatabase(db);
  db.$client.close();
  console.log(`migrated ${file}`);
}
