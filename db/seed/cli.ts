/**
 * `npm run db:seed`: seeds the demo workspace into the store once (migrating first): PostgreSQL when
 * `BENCHWORK_DATABASE_URL=postgres://…`, else the SQLite file at `BENCHWORK_DB`.
 */
import { databasePath, migrateDatabase, openDatabase, type Db } from "../client";
import { exitIfUnreachable, migratePostgres, postgresUrl } from "../pg/client";
import { closeStore, openPgStore } from "../pg/store";
import { seedDemoWorkspace } from "./demo";

const url = postgresUrl();
let db: Db;
let where: string;
if (url) {
  // A store it cannot reach: one line on stderr, exit 1 (`npm start` adds nothing under it).
  await migratePostgres(url).catch(exitIfUnreachable("benchwork"));
  db = openPgStore(url, 2);
  where = `${new URL(url).host}${new URL(url).pathname} (PostgreSQL)`;
} else {
  where = databasePath();
  db = openDatabase(where);
  migrateDatabase(db);
}
const started = Date.now();
try {
  const r = await seedDemoWorkspace(db);
  if (r.skipped) console.log(`demo workspace: already present in ${where}, left as is`);
  else console.log(`demo workspace: seeded ${r.systems} systems, ${r.cases} cases, ${r.criteria} criteria into ${where} in ${Date.now() - started} ms`);
} finally {
  await closeStore(db);
}
