/**
 * Two checkouts can run their e2e tests at once: without E2E_PORT / E2E_MODEL_PORT the Playwright
 * config picks free ports, and hands them on through the environment so every process of the run
 * (the runner, its workers, the web server) evaluates the config to the same ports.
 */
import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";

/** Resolves true when `port` can be bound on 127.0.0.1 right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** Evaluates playwright.config.ts afresh, as a new process of the run would. */
async function loadConfig() {
  vi.resetModules();
  return (await import("../playwright.config")).default;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("e2e ports", () => {
  it("picks two free ports when none are given and passes them on through the environment", async () => {
    vi.stubEnv("E2E_PORT", undefined);
    vi.stubEnv("E2E_MODEL_PORT", undefined);
    const config = await loadConfig();
    const appPort = Number(new URL(config.use!.baseURL!).port);
    const modelPort = Number(process.env.E2E_MODEL_PORT);
    expect(process.env.E2E_PORT).toBe(String(appPort));
    expect(Number.isInteger(modelPort) && modelPort > 0).toBe(true);
    expect(modelPort).not.toBe(appPort);
    expect(await bindable(appPort)).toBe(true);
    expect(await bindable(modelPort)).toBe(true);
    const server = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer!;
    expect(server.url).toBe(`http://127.0.0.1:${appPort}/`);
    expect(server.env).toMatchObject({ E2E_PORT: String(appPort), E2E_MODEL_PORT: String(modelPort) });

    // A worker process inherits the environment and evaluates the config again: same ports.
    const again = await loadConfig();
    expect(again.use!.baseURL).toBe(`http://127.0.0.1:${appPort}`);
    expect(process.env.E2E_MODEL_PORT).toBe(String(modelPort));
  });

  it("uses the ports given in the environment", async () => {
    vi.stubEnv("E2E_PORT", "3207");
    vi.stubEnv("E2E_MODEL_PORT", "4207");
    const config = await loadConfig();
    expect(config.use!.baseURL).toBe("http://127.0.0.1:3207");
    const server = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer!;
    expect(server.env).toMatchObject({ E2E_PORT: "3207", E2E_MODEL_PORT: "4207" });
  });

  it("names the variable when a given port is not a port", async () => {
    vi.stubEnv("E2E_PORT", "31o7");
    vi.stubEnv("E2E_MODEL_PORT", undefined);
    await expect(loadConfig()).rejects.toThrow('E2E_PORT must be a port number (1-65535), got "31o7"');
  });
});
