/** `npm run db:seed`: seeds the demo workspace into `BENCHWORK_DB` once (migrating first). */
import { databasePath, migrateDatabase, openDatabase } from "../client";
import { seedDemoWorkspace } from "./demo";

const file = databasePath();
const db = openDatabase(file);
migrateDatabase(db);
const started = Date.now();
const r = await seedDemoWorkspace(db);
db.$client.close();
if (r.skipped) console.log(`demo workspace: already present in ${file}, left as is`);
else console.log(`demo workspace: seeded ${r.systems} systems, ${r.cases} cases, ${r.criteria} criteria into ${file} in ${Date.now() - started} ms`);
