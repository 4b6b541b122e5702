/**
 * The cross-process part of the trial job queue contract (lib/bench/trial-jobs.ts), shared by both
 * implementations' suites: two claimer processes (db/test-support/queue-claimer.ts) on one store hold
 * a provider's limit between them, lose nothing when one is killed with SIGKILL, and hold the limit
 * across benches. Each suite supplies how to launch a bench and read its trials on its store.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import type { TrialClaim } from "@/lib/bench/trial-jobs";
import type { ClaimerInit } from "./queue-claimer";

/** What a suite gives the shared tests. `now` is the suite's clock origin (ms). */
export interface QueueProcessesSetup {
  now: number;
  /** The claimers' store (a SQLite file or a PostgreSQL URL); read when a test starts. */
  target: () => { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  launch: (trials: number, o: { concurrency: number; provider: string; providerLimit: number }) => Promise<{ benchId: number; trialIds: number[] }>;
  trialRows: (benchId: number) => Promise<{ id: number; status: string; output: string | null; attempts: number }[]>;
  /** Extra checks after the first test drained its bench (the pg-boss jobs' states). */
  afterDrain?: (benchId: number) => Promise<void>;
}

/** Defines the two-claimer tests (call inside a describe). */
export function queueProcessTests(s: QueueProcessesSetup): void {
  const T0 = s.now;
  const children: ChildProcess[] = [];
  let nextId = 1;

  /** Starts a claimer process; returns a request function (with its `child` process). */
  async function claimer(providerKey: string) {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./queue-claimer.ts", import.meta.url))], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    children.push(child);
    const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    const ready = new Promise<void>((resolve, reject) => {
      child.on("message", (m: { ready?: true; id?: number; result?: unknown; error?: string }) => {
        if (m.ready) return resolve();
        const p = pending.get(m.id!);
        pending.delete(m.id!);
        if (m.error) p?.reject(new Error(m.error));
        else p?.resolve(m.result);
      });
      child.once("exit", (code) => reject(new Error(`claimer exited with ${code}`)));
    });
    child.send({ ...s.target(), providerKey } satisfies ClaimerInit);
    await ready;
    const request = <T>(req: Record<string, unknown>) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, ...req });
      });
    return Object.assign(request, { child });
  }

  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill();
  });

  it("never exceed a provider limit of N between them, and each trial gets exactly one result", async () => {
    const N = 3;
    const { benchId, trialIds } = await s.launch(40, { concurrency: 40, provider: "limited", providerLimit: N });
    const [a, b] = await Promise.all([claimer("limited"), claimer("limited")]);

    // A holds N: B gets none until A completes one.
    const heldByA = await a<TrialClaim[]>({ op: "claim", workerId: "a", max: N + 5, now: T0 });
    expect(heldByA).toHaveLength(N);
    expect(await b<TrialClaim[]>({ op: "claim", workerId: "b", max: 5, now: T0 })).toEqual([]);
    expect(await a<number>({ op: "complete", claims: heldByA.slice(0, 1) })).toBe(1);
    const heldByB = await b<TrialClaim[]>({ op: "claim", workerId: "b", max: 5, now: T0 });
    expect(heldByB).toHaveLength(1);
    await Promise.all([a({ op: "complete", claims: heldByA.slice(1) }), b({ op: "complete", claims: heldByB })]);

    // Both ask for N at the same moment: together they get exactly N.
    const [x, y] = await Promise.all([
      a<TrialClaim[]>({ op: "claim", workerId: "a", max: N, now: T0 }),
      b<TrialClaim[]>({ op: "claim", workerId: "b", max: N, now: T0 }),
    ]);
    expect(x.length + y.length).toBe(N);
    expect(new Set([...x, ...y].map((c) => c.trialId)).size).toBe(N);
    await Promise.all([a({ op: "complete", claims: x }), b({ op: "complete", claims: y })]);

    // Both drain the rest as fast as they can.
    const [da, dbr] = await Promise.all([
      a<{ completed: number; peak: number }>({ op: "drain", workerId: "a", max: N, now: T0 }),
      b<{ completed: number; peak: number }>({ op: "drain", workerId: "b", max: N, now: T0 }),
    ]);
    expect(da.completed + dbr.completed).toBe(40 - 1 - (N - 1) - 1 - N);
    expect(Math.max(da.peak, dbr.peak)).toBeLessThanOrEqual(N);
    await Promise.all([a({ op: "stop" }), b({ op: "stop" })]);

    const rows = await s.trialRows(benchId);
    expect(rows.map((r) => r.id)).toEqual(trialIds);
    expect(rows.every((r) => r.status === "done" && r.output !== null && r.attempts === 1)).toBe(true);
    await s.afterDrain?.(benchId);
  }, 60_000);

  it("lose nothing when one is killed (SIGKILL) holding claims: they are re-delivered once, and each trial ends with one result", async () => {
    const { benchId, trialIds } = await s.launch(12, { concurrency: 12, provider: "kill", providerLimit: 5 });
    const [victim, survivor] = await Promise.all([claimer("kill"), claimer("kill")]);
    const held = await victim<TrialClaim[]>({ op: "claim", workerId: "victim", max: 5, now: T0 });
    expect(held).toHaveLength(5);
    const child = victim.child;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    // Before the lease ends the victim's claims still count: the provider is full.
    expect(await survivor<TrialClaim[]>({ op: "claim", workerId: "survivor", max: 5, now: T0 + 59_999 })).toEqual([]);
    // After it (the default lease is 60 s) the survivor gets them back and finishes everything.
    const drained = await survivor<{ completed: number; peak: number }>({ op: "drain", workerId: "survivor", max: 5, now: T0 + 60_000 });
    await survivor({ op: "stop" });
    expect(drained.completed).toBe(12);
    const rows = await s.trialRows(benchId);
    expect(rows.map((r) => r.id)).toEqual(trialIds);
    expect(rows.every((r) => r.status === "done")).toBe(true);
    const redelivered = new Set(held.map((c) => c.trialId));
    expect(rows.map((r) => r.attempts)).toEqual(trialIds.map((id) => (redelivered.has(id) ? 2 : 1)));
    expect(rows.every((r) => r.output?.startsWith("by ") && !r.output.startsWith(`by ${child.pid} `))).toBe(true);
  }, 60_000);

  it("hold the provider's limit while they claim from different benches at once", async () => {
    const N = 3;
    // Ten benches of one slot each: the claimers work on different benches at the same time, so
    // only the provider's count stands between them and a fourth trial in flight.
    const launched = [];
    for (let i = 0; i < 10; i++) launched.push(await s.launch(4, { concurrency: 1, provider: "spread", providerLimit: N }));
    const [a, b] = await Promise.all([claimer("spread"), claimer("spread")]);
    const [da, dbr] = await Promise.all([
      a<{ completed: number; peak: number }>({ op: "drain", workerId: "a", max: N, now: T0 }),
      b<{ completed: number; peak: number }>({ op: "drain", workerId: "b", max: N, now: T0 }),
    ]);
    await Promise.all([a({ op: "stop" }), b({ op: "stop" })]);
    expect(da.completed + dbr.completed).toBe(40);
    expect(Math.max(da.peak, dbr.peak)).toBeLessThanOrEqual(N);
    for (const bench of launched) expect((await s.trialRows(bench.benchId)).map((r) => r.status)).toEqual(["done", "done", "done", "done"]);
  }, 60_000);
}
