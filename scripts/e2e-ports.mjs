/**
 * Ports of an e2e run: `E2E_PORT` (the app under test on SQLite), `E2E_MODEL_PORT` (the scripted
 * model server) and `E2E_PG_PORT` (the same app on a throwaway PostgreSQL store, issue 20). Given ones are used; missing ones are picked free (so two checkouts can run their e2e
 * tests at once) and written back to the environment, so every process of the run — Playwright's
 * runner and workers, which each evaluate playwright.config.ts, and the web server — gets the same.
 */
import net from "node:net";

/**
 * A port that is free on 127.0.0.1 now, held open until `release()` (so two picks differ).
 * @returns the port and a function that closes the probe
 */
function probe() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      resolve({ port, release: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}

/**
 * Parses a port given in the environment.
 * @throws Error naming the variable when the value is not a whole number in 1–65535
 */
function parsePort(name, value) {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`${name} must be a port number (1-65535), got ${JSON.stringify(value)}`);
  return n;
}

/**
 * The run's three ports, from `env` or picked free and stored into `env`.
 * @param env the environment to read and complete (default `process.env`)
 * @returns `{ appPort, modelPort, pgAppPort }`
 * @throws Error naming the variable when a given value is not a port
 */
export async function e2ePorts(env = process.env) {
  const given = { E2E_PORT: env.E2E_PORT, E2E_MODEL_PORT: env.E2E_MODEL_PORT, E2E_PG_PORT: env.E2E_PG_PORT };
  const held = [];
  try {
    for (const name of /** @type {const} */ (["E2E_PORT", "E2E_MODEL_PORT", "E2E_PG_PORT"])) {
      const value = given[name];
      if (value !== undefined && value !== "") parsePort(name, value);
      else {
        const p = await probe();
        held.push(p);
        env[name] = String(p.port);
      }
    }
  } finally {
    await Promise.all(held.map((p) => p.release()));
  }
  return {
    appPort: parsePort("E2E_PORT", env.E2E_PORT),
    modelPort: parsePort("E2E_MODEL_PORT", env.E2E_MODEL_PORT),
    pgAppPort: parsePort("E2E_PG_PORT", env.E2E_PG_PORT),
  };
}
