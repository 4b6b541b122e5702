#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster for tests and CI (issue 20): `initdb` into a temporary folder,
 * `postgres` on a free loopback port with its unix socket in that folder (no system service, no
 * password: trust on loopback only), one database, then stop and remove everything.
 *
 *   node scripts/pg-cluster.mjs -- COMMAND [ARGS…]   runs COMMAND with BENCHWORK_TEST_DATABASE_URL
 *                                                     set, then stops the cluster; exits with its status
 *   node scripts/pg-cluster.mjs                       prints the URL and keeps the cluster up until
 *                                                     Ctrl-C / SIGTERM
 *
 * Binaries: `BENCHWORK_PG_BIN` (a folder holding initdb and postgres), else `pg_config --bindir`,
 * else the newest /usr/lib/postgresql/N/bin (Debian's layout). `initdb` refuses to run as root: when
 * this process is root the cluster belongs to the unprivileged `nobody` user (uid/gid 65534).
 */
import { spawn, spawnSync } from "node:child_process";
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The user a root process hands the cluster to (Debian's `nobody`). */
const UNPRIVILEGED = { uid: 65534, gid: 65534 };
/** Superuser and database names inside the throwaway cluster. */
const SUPERUSER = "benchwork";
const DATABASE = "benchwork";

/**
 * The folder holding PostgreSQL's server binaries, or null when they are not installed.
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null}
 */
export function findPgBin(env = process.env) {
  const has = (dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres"));
  if (env.BENCHWORK_PG_BIN) return has(env.BENCHWORK_PG_BIN) ? env.BENCHWORK_PG_BIN : null;
  const r = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (r.status === 0 && has(r.stdout.trim())) return r.stdout.trim();
  const debian = "/usr/lib/postgresql";
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(path.join(debian, v, "bin"))) return path.join(debian, v, "bin");
  return null;
}

/** What to say when the binaries are missing (tests print it and count the suite as failed). */
export const MISSING_PG_MESSAGE =
  "PostgreSQL server binaries (initdb, postgres) were not found: install Debian's `postgresql` package " +
  "(.ci/run does), or set BENCHWORK_PG_BIN to their folder. To run the tests without the PostgreSQL suites, " +
  "set BENCHWORK_SKIP_PG=1 explicitly.";

/**
 * As root the cluster runs as `nobody`, which must be able to enter every folder above it.
 * @throws naming the folder that shuts it out (e.g. TMPDIR under /root)
 */
function assertReachable(folder) {
  for (let f = path.resolve(folder); ; f = path.dirname(f)) {
    if ((statSync(f).mode & 0o001) === 0)
      throw new Error(
        `the temporary folder ${folder} is not reachable by the unprivileged user the cluster runs as (${f} is not searchable by others): set TMPDIR to a folder like /tmp`,
      );
    if (path.dirname(f) === f) return;
  }
}

/** A free TCP port on 127.0.0.1 (bound and released; postgres binds it right after). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves when the server accepts sessions (`pg_isready`: a server still starting up accepts TCP
 * connections but refuses sessions); rejects when `child` exits first or after 60 s.
 */
async function waitReady(bin, port, child, log) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections:\n${log()}`);
    const r = spawnSync(path.join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port), "-U", SUPERUSER, "-d", "postgres"]);
    if (r.status === 0) return;
    if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 60 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a throwaway cluster.
 * @param {{ bin?: string, database?: string }} [options]
 * @returns {Promise<{ url: string, adminUrl: string, port: number, dir: string, stop: () => Promise<void> }>}
 *   `url` names the database `benchwork`; `adminUrl` the `postgres` database (to create more)
 * @throws {Error} when the binaries are missing (message: {@link MISSING_PG_MESSAGE}) or initdb/postgres fail
 */
export async function startCluster(options = {}) {
  const bin = options.bin ?? findPgBin();
  if (!bin) throw new Error(MISSING_PG_MESSAGE);
  const database = options.database ?? DATABASE;
  const asUser = process.getuid?.() === 0 ? UNPRIVILEGED : {};
  if (asUser.uid !== undefined) assertReachable(os.tmpdir());
  const dir = mkdtempSync(path.join(os.tmpdir(), "benchwork-pg-"));
  if (asUser.uid !== undefined) chownSync(dir, asUser.uid, asUser.gid);
  const data = path.join(dir, "data");
  const cleanup = () => rmSync(dir, { recursive: true, force: true });

  // C.UTF-8: code-point collation (as SQLite's) with Unicode character classes, so ILIKE folds the
  // case of non-ASCII letters ("Ü" matches "ü") as the library's search promises; plain C where the
  // system has no C.UTF-8 locale.
  const initdb = (locale) =>
    spawnSync(path.join(bin, "initdb"), ["-D", data, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", `--locale=${locale}`, "--no-sync"], {
      encoding: "utf8",
      cwd: dir,
      ...asUser,
    });
  let init = initdb("C.UTF-8");
  if (init.status !== 0) {
    rmSync(data, { recursive: true, force: true });
    init = initdb("C");
  }
  if (init.status !== 0) {
    cleanup();
    throw new Error(`initdb failed (${init.status ?? init.error?.message}):\n${init.stdout}${init.stderr}`);
  }

  // A port can be taken between freePort() and postgres binding it: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // The server's log goes to a file, not a pipe: a caller that blocks its event loop (spawnSync
    // in npm test) would otherwise stop draining the pipe and stall the server once it fills.
    const logFile = path.join(dir, `postgres-${attempt}.log`);
    const logFd = openSync(logFile, "a");
    const output = () => readFileSync(logFile, "utf8");
    // Durability off: the cluster is thrown away. listen on loopback only; socket in our folder.
    const child = spawn(
      path.join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-h",
        "127.0.0.1",
        "-k",
        dir,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=200",
      ],
      { cwd: dir, stdio: ["ignore", logFd, logFd], ...asUser },
    );
    closeSync(logFd);
    try {
      await waitReady(bin, port, child, output);
    } catch (e) {
      if (attempt < 3 && /could not bind|Address already in use/i.test(output())) continue;
      cleanup();
      throw e;
    }
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGINT"); // fast shutdown
        await exited;
      }
      cleanup();
    };
    const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    const created = spawnSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", SUPERUSER, database], { encoding: "utf8" });
    if (created.status !== 0) {
      await stop();
      throw new Error(`createdb failed: ${created.stdout}${created.stderr}`);
    }
    return { url: `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`, adminUrl, port, dir, stop };
  }
}

async function main(argv) {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let cluster;
  try {
    cluster = await startCluster();
  } catch (e) {
    console.error(`pg-cluster: ${e.message}`);
    process.exit(2);
  }
  const stopAndExit = async (code) => {
    await cluster.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stopAndExit(130));
  process.on("SIGTERM", () => void stopAndExit(143));
  if (command.length === 0) {
    console.log(`BENCHWORK_TEST_DATABASE_URL=${cluster.url}`);
    // The folder holds the server's log (postgres-N.log) and its unix socket: a tester looked for it.
    console.log(`pg-cluster: running in ${cluster.dir}; Ctrl-C stops it and removes that folder`);
    return;
  }
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env: { ...process.env, BENCHWORK_TEST_DATABASE_URL: cluster.url } });
  child.on("exit", (code, signal) => void stopAndExit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
