/**
 * Worker processes for tests and figures (issue 20): `npm run worker`'s exact command line (its
 * environment, node flags and script, read from package.json) started N times on one store, each
 * one killable with SIGKILL and restartable. Used by the PostgreSQL kill test
 * (server/bench/pg-kill.test.ts) and the worker figures (bench/pg-workers.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is server/bench/test-support/worker-fleet.ts). */
export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * `npm run worker` as a plain command: its leading `NAME=value` environment, then node's arguments.
 * @throws when package.json's `scripts.worker` does not run `node`
 */
export function workerCommand(root = REPO_ROOT): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.worker;
  const parts = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(parts[0] ?? "")) {
    const [k, ...v] = parts.shift()!.split("=");
    env[k] = v.join("=");
  }
  if (parts[0] === "exec") parts.shift(); // the shell hands its process to node
  if (parts[0] !== "node") throw new Error(`package.json scripts.worker should run "node": ${script}`);
  return { env, args: parts.slice(1) };
}

/** One worker slot of a {@link WorkerFleet}: the current process and how many times it was started. */
interface Slot {
  child: ChildProcess;
  starts: number;
  /** The end of its standard error (for a failure message). */
  stderr: string;
}

/** Options of {@link WorkerFleet}. */
export interface WorkerFleetOptions {
  /** The workers' environment (the store's variables, limits); `npm run worker`'s own variables come first. */
  env: Record<string, string | undefined>;
  /** Called with a bench id each time a worker prints `bench #N finished`. */
  onBenchFinished?: (benchId: number) => void;
  /** Show the workers' standard error, each line marked with its pid (default true). */
  echoStderr?: boolean;
  /** Most ms to wait for a worker to say it is running (default 120 s: a busy machine bundles slowly). */
  startTimeoutMs?: number;
  /** The checkout whose `npm run worker` to start (default this one; bench/pg-workers.ts's `--before DIR`). */
  root?: string;
  /** More node arguments, before the script (e.g. `--cpu-prof`: NODE_OPTIONS refuses it). */
  nodeArgs?: string[];
}

/**
 * N `npm run worker` processes. {@link start} waits until each says `benchwork worker PID running`;
 * {@link kill} is `kill -9` of one; {@link stop} ends them all.
 */
export class WorkerFleet {
  private readonly slots: Slot[] = [];
  private readonly command: { env: Record<string, string>; args: string[] };
  private readonly root: string;

  constructor(private readonly o: WorkerFleetOptions) {
    this.root = o.root ?? REPO_ROOT;
    this.command = workerCommand(this.root);
  }

  /** How many workers the fleet has (alive or not). */
  get size(): number {
    return this.slots.length;
  }

  /** The pids of the current processes, by slot. */
  get pids(): number[] {
    return this.slots.map((s) => s.child.pid!);
  }

  /** Processes started in all (first starts and restarts). */
  get starts(): number {
    return this.slots.reduce((n, s) => n + s.starts, 0);
  }

  /** Starts `n` more workers and waits until each is running. @throws when one exits or stays silent first */
  async start(n: number): Promise<void> {
    const started = Array.from({ length: n }, () => {
      const slot: Slot = { child: null as unknown as ChildProcess, starts: 0, stderr: "" };
      this.slots.push(slot);
      return this.launch(slot);
    });
    await Promise.all(started);
  }

  /** Kills slot `i`'s process with SIGKILL and waits until it is gone. @returns its pid */
  async kill(i: number): Promise<number> {
    const { child } = this.slots[i];
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    }
    return child.pid!;
  }

  /** Starts slot `i` again (after {@link kill}) and waits until it is running. */
  restart(i: number): Promise<void> {
    return this.launch(this.slots[i]);
  }

  /**
   * Stops every worker: SIGTERM (running trials finish), SIGKILL after `graceMs`.
   * @param graceMs ms to wait for a clean exit (default 20 s)
   */
  async stop(graceMs = 20_000): Promise<void> {
    await Promise.all(
      this.slots.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await gone;
        clearTimeout(timer);
      }),
    );
  }

  private launch(slot: Slot): Promise<void> {
    const args = [...(this.o.nodeArgs ?? []), ...this.command.args];
    const child = spawn(process.execPath, args, {
      cwd: this.root,
      env: { ...process.env, ...this.command.env, ...this.o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    slot.child = child;
    slot.starts++;
    slot.stderr = "";
    child.stderr!.on("data", (d: Buffer) => {
      slot.stderr = (slot.stderr + d.toString()).slice(-4_000);
      // What a worker reports as an error is shown as it happens, to tell why a run went wrong.
      if (this.o.echoStderr !== false) process.stderr.write(d.toString().replace(/^(?=.)/gm, `[worker ${child.pid}] `));
    });
    let out = "";
    return new Promise<void>((resolve, reject) => {
      const timeoutMs = this.o.startTimeoutMs ?? 120_000;
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`worker ${child.pid} did not say it was running within ${timeoutMs} ms:\n${out}${slot.stderr}`));
      }, timeoutMs);
      let running = false;
      // Always drained: a worker blocked on a full stdout pipe would stall its trials.
      child.stdout!.on("data", (d: Buffer) => {
        const text = d.toString();
        if (!running) {
          out = (out + text).slice(-4_000);
          if (/benchwork worker \d+ running/.test(out)) {
            running = true;
            clearTimeout(timer);
            resolve();
          }
        }
        for (const m of text.matchAll(/bench #(\d+) finished/g)) this.o.onBenchFinished?.(Number(m[1]));
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (!running) reject(new Error(`worker ${child.pid} exited (${code ?? signal}) before it was running:\n${out}${slot.stderr}`));
      });
    });
  }
}
