/**
 * The key that signs session cookies. `BENCHWORK_AUTH_SECRET` when set (required beyond loopback,
 * see scripts/listen.mjs); otherwise a random key kept in `auth-secret` beside the database file
 * (created once, mode 0600), so a laptop's sessions survive a restart. An in-memory database gets
 * a fresh key per process.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Shortest secret accepted from the environment (better-auth wants 32 characters of entropy). */
export const MIN_SECRET_LENGTH = 32;

let memorySecret: string | null = null;

/**
 * The signing key.
 * @param env BENCHWORK_AUTH_SECRET
 * @param dbFile the database path (`:memory:` allowed)
 * @throws when BENCHWORK_AUTH_SECRET is set but shorter than {@link MIN_SECRET_LENGTH}
 */
export function authSecret(env: Record<string, string | undefined>, dbFile: string): string {
  const fromEnv = env.BENCHWORK_AUTH_SECRET?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH)
      throw new Error(`BENCHWORK_AUTH_SECRET is ${fromEnv.length} characters; use at least ${MIN_SECRET_LENGTH} (e.g. \`openssl rand -hex 32\`).`);
    return fromEnv;
  }
  if (dbFile === ":memory:") return (memorySecret ??= randomBytes(32).toString("hex"));
  const file = path.join(path.dirname(path.resolve(/*turbopackIgnore: true*/ dbFile)), "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (e) {
      // Another process (the CLI, a worker) wrote it first: read theirs.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  return readFileSync(file, "utf8").trim();
}
