/**
 * `benchwork publish [CONFIG] --system ID [--prompt NAME] [--json]` (issue #6): compiles the
 * benchmark and loads the release into the test library of a system (BENCHWORK_DB). Cases appear
 * with source `code` and their file/row; publishing again makes new case revisions only for cases
 * whose code changed; cases that disappeared from the code are listed and left for the user.
 * Target prompts: one per eval id (created when missing), or every case into `--prompt NAME`.
 * Exit 0 when published; 1 when the benchmark does not compile or a case id is taken by a case
 * that is not from code (nothing is written then); 2 on a usage error (no config, unknown system).
 * With `--server URL` (issue 19) the release compiled here is published on that team server through
 * its HTTP API (token from BENCHWORK_TOKEN); same output and exit codes; a refused token exits 2.
 */
import { openMigratedStore, storeName } from "@/db/open-store";
import { publishRelease, type PublishReport } from "@/db/queries/publish";
import { LibraryError } from "@/lib/library/errors";
import type { Release } from "@/lib/suite/types";
import { LOCAL_AUTHOR } from "../local-author";
import { CliError, usage, type Io } from "../io";
import { connect, RemoteError, remoteRefusal } from "../remote";
import { loadForCli } from "../suite/common";

/** Options of {@link publishCommand}. */
export interface PublishOptions {
  system: string;
  prompt?: string;
  json?: boolean;
  /** `--server URL`: publish to a team server through its HTTP API (token from BENCHWORK_TOKEN). */
  server?: string;
}

/** Publishes on the configured store (BENCHWORK_DATABASE_URL or BENCHWORK_DB). */
async function publishLocal(release: Release, o: PublishOptions): Promise<PublishReport> {
  const store = await openMigratedStore();
  const db = store.db;
  try {
    return await publishRelease(db, {
      systemId: o.system,
      release,
      ...(o.prompt ? { promptName: o.prompt } : {}),
      author: LOCAL_AUTHOR,
    });
  } catch (e) {
    if (e instanceof LibraryError && e.code === "not_found") throw usage(`--system: ${e.message} (database ${store.where})`);
    if (e instanceof LibraryError) throw new CliError(e.message, 1);
    throw e;
  } finally {
    await store.close();
  }
}

/** Publishes on a team server. */
async function publishRemote(release: Release, o: PublishOptions & { server: string }): Promise<PublishReport> {
  const remote = connect(o.server, process.env.BENCHWORK_TOKEN || undefined);
  try {
    return await remote.call<PublishReport>("POST", "api/v1/publish", { system: o.system, ...(o.prompt ? { prompt: o.prompt } : {}), release });
  } catch (e) {
    if (e instanceof RemoteError && e.status === 404) throw usage(`--system: ${e.error.message} (server ${o.server})`);
    throw remoteRefusal(e);
  }
}

/** Runs the command; returns the exit code. */
export async function publishCommand(configArg: string | undefined, o: PublishOptions, io: Io): Promise<number> {
  if (o.prompt !== undefined && o.prompt.trim() === "") throw usage("--prompt must not be empty");
  const b = await loadForCli(configArg);
  const { release } = b.compiled;
  const report = o.server !== undefined ? await publishRemote(release, { ...o, server: o.server }) : await publishLocal(release, o);
  if (o.json) {
    io.out(JSON.stringify(report));
    return 0;
  }
  io.out(`published ${release.title} ${release.version} (${release.contentHash}) to system "${o.system}" in ${o.server ?? storeName()}`);
  if (report.promptsCreated.length) io.out(`  prompts created: ${report.promptsCreated.join(", ")}`);
  io.out(`  ${report.created.length} new, ${report.revised.length} revised, ${report.unchanged.length} unchanged`);
  for (const r of report.revised) io.out(`  revised: ${r.caseKey} → revision ${r.revision}`);
  for (const w of report.warnings) io.out(`  note: ${w}`);
  if (report.disappeared.length) {
    const one = report.disappeared.length === 1;
    io.out(
      `  ${report.disappeared.length} code case${one ? " is" : "s are"} no longer in the code (left as ${one ? "it is" : "they are"}; pause or keep ${one ? "it" : "them"} in the library):`,
    );
    for (const d of report.disappeared)
      io.out(`    ${d.caseKey} (prompt ${d.promptName}, ${d.status}${d.file ? `, was ${d.file}${d.row !== null ? ` row ${d.row}` : ""}` : ""})`);
  }
  return 0;
}
