/**
 * Where benches can run (issue 20): the bench worker runs SQLite's trial queue only, until it is
 * moved onto the queue contract (lib/bench/trial-jobs.ts) that pg-boss implements for PostgreSQL.
 * Launching there would queue trials nobody runs, so launches and reruns are refused with a reason.
 */
import type { Db } from "@/db/client";
import { isPostgres } from "@/db/dialect";
import { LibraryError } from "@/lib/library/errors";

/** The message a launch or rerun on a PostgreSQL store is refused with. */
export const BENCHES_NOT_ON_POSTGRES =
  "Benches do not run on PostgreSQL yet: this server has no bench worker for it (issue #20). Run benches on a SQLite store for now; the library, review and accounts work here.";

/**
 * Throws when benches cannot run on `db`'s store.
 * @throws LibraryError `not_allowed` with {@link BENCHES_NOT_ON_POSTGRES} on PostgreSQL
 */
export function assertBenchesRun(db: Db): void {
  if (isPostgres(db)) throw new LibraryError("not_allowed", BENCHES_NOT_ON_POSTGRES);
}
