/**
 * A real user and personal API token on a test database (issue 19), for the HTTP API tests: the
 * token goes through the same hashing and lookup as on a team server.
 */
import type { Db } from "@/db/client";
import type { Role } from "@/server/auth/actor";
import { createApiToken } from "@/server/auth/api-tokens";
import { createAuth } from "@/server/auth/auth";
import { addUser } from "@/server/auth/users";

/**
 * Adds user `email` with `role` and issues them a token of `scope`.
 * @returns the token's secret (what `BENCHWORK_TOKEN` holds), its id and the user's id
 */
export async function issueTestToken(
  db: Db,
  o: { email: string; role: Role; scope: "read" | "run" },
): Promise<{ token: string; userId: string; tokenId: number }> {
  const auth = createAuth({ db, secret: "t".repeat(32), env: {} });
  const user = await addUser(auth, { email: o.email, role: o.role, password: "test-password-123" });
  const { token, id } = await createApiToken(db, user.id, { name: "test", scope: o.scope }, Date.now());
  return { token, userId: user.id, tokenId: id };
}
