/**
 * The build step of `npm start`: `next build` without Next's own type-check (on two cores it was
 * over half of the first start; `npm test` and `npm run typecheck` type-check instead), saying what
 * it does, roughly how long it takes, and every 30 s that it is still working (next build prints
 * nothing for minutes while it compiles).
 */
import { spawn } from "node:child_process";
import path from "node:path";

/** How often to say the build is still running, in ms. */
const HEARTBEAT_MS = 30_000;

/** `75_000` → `1 min 15 s`. */
function duration(ms) {
  const s = Math.round(ms / 1000);
  const min = Math.floor(s / 60);
  const rest = s % 60;
  if (min === 0) return `${rest} s`;
  return rest ? `${min} min ${rest} s` : `${min} min`;
}

/** Runs `cmd args` with the terminal attached; resolves its exit code (1 when it could not start or was killed). */
function runInherited(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", env });
    child.on("error", (e) => {
      console.error(`benchwork: could not run ${cmd}: ${e.message}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Builds the production bundle.
 * @param o.run runs a command, resolving its exit code (default: spawn with the terminal attached)
 * @param o.log prints one line (default console.log)
 * @param o.now the clock, in ms (default Date.now)
 * @param o.every calls `fn` every `ms` until the returned stop function is called (default setInterval)
 * @param o.env the build's environment (default process.env); `BENCHWORK_BUILD_TYPECHECK=0` is added
 * @returns next build's exit code (0 on success)
 */
export async function buildApp(o = {}) {
  const run = o.run ?? runInherited;
  const log = o.log ?? ((line) => console.log(line));
  const now = o.now ?? Date.now;
  const every =
    o.every ??
    ((ms, fn) => {
      const t = setInterval(fn, ms);
      return () => clearInterval(t);
    });
  const env = { ...(o.env ?? process.env), BENCHWORK_BUILD_TYPECHECK: "0" };
  const started = now();
  // Measured on a shared 2-core machine: 0.5–1.5 min without the type-check (1–2.5 min with it).
  log(
    "benchwork: building the app (first start or sources changed) with next build, without type-checking (npm test does that); it takes about 1–2 minutes on 2 cores, and later starts reuse the build",
  );
  const stop = every(HEARTBEAT_MS, () => log(`benchwork: still building (${duration(now() - started)} so far)…`));
  let code;
  try {
    code = await run(path.join("node_modules", ".bin", "next"), ["build"], env);
  } finally {
    stop();
  }
  log(
    code === 0 ? `benchwork: build finished in ${duration(now() - started)}` : `benchwork: next build failed (exit ${code}) after ${duration(now() - started)}`,
  );
  return code;
}
