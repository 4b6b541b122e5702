import { getDb } from "@/db/client";
import { countUsers } from "@/db/queries/users";
import { markStoreUnreachable } from "@/lib/store/unreachable";

/**
 * Runs one small query on the server's store.
 * @throws the query's error, marked with the store-unreachable digest when the store cannot be
 *   reached (lib/store/unreachable.ts), so that app/error.tsx says so in the browser
 */
export async function probeStore(): Promise<void> {
  try {
    await countUsers(getDb());
  } catch (e) {
    throw markStoreUnreachable(e);
  }
}
