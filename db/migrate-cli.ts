/** `npm run db:migrate`: applies pending migrations to `BENCHWORK_DB` (default data/benchwork.db). */
import { databasePath, migrateDatabase, openDatabase } from "./client";

const file = databasePath();
const db = openDatabase(file);
migrateDatabase(db);
db.$client.close();
console.log(`migrated ${file}`);
