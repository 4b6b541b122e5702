/** The HTTP API's publish (`POST /api/v1/publish`, issue 19): a release compiled by the CLI into a system's library. */
import type { Db } from "@/db/client";
import { publishRelease, type PublishReport } from "@/db/queries/publish";
import type { PublishBody } from "@/lib/api/schemas";
import type { Author } from "@/lib/audit/author";
import { LibraryError } from "@/lib/library/errors";
import { releaseHash } from "@/lib/suite/compile";

/**
 * Publishes `body.release` for `author`. The release's content hash must match its content (a
 * release edited after `benchwork compile` is refused).
 * @throws LibraryError `validation` (hash, field `release.contentHash`), `not_found` (system), `duplicate_case_id`
 */
export async function publishForApi(db: Db, body: PublishBody, author: Author): Promise<PublishReport> {
  const hash = releaseHash(body.release);
  if (hash !== body.release.contentHash) {
    const msg = `release.contentHash: ${body.release.contentHash} does not match the release's content (${hash}); compile it again instead of editing the file.`;
    throw new LibraryError("validation", msg, { "release.contentHash": msg });
  }
  return publishRelease(db, { systemId: body.system, release: body.release, ...(body.prompt ? { promptName: body.prompt } : {}), author });
}
