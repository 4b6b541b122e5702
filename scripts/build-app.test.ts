/**
 * The build step of `npm start`: `next build` without Next's own type-check (the tests and
 * `npm run typecheck` do it; on two cores it doubled the first start), saying what it does, how long
 * it roughly takes, and that it is still working while the build is quiet.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "./build-app.mjs";

/** A fake clock and ticker: `tick(ms)` moves the clock and runs what is due. */
function fakeTime() {
  let t = 0;
  const timers: { every: number; next: number; fn: () => void }[] = [];
  return {
    now: () => t,
    every(ms: number, fn: () => void) {
      const timer = { every: ms, next: t + ms, fn };
      timers.push(timer);
      return () => void timers.splice(timers.indexOf(timer), 1);
    },
    tick(ms: number) {
      const end = t + ms;
      for (;;) {
        const due = timers.filter((x) => x.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        t = due.next;
        due.next += due.every;
        due.fn();
      }
      t = end;
    },
    pending: () => timers.length,
  };
}

/** A build the test finishes by hand: `finish(code)`. */
function fakeRun() {
  const calls: { cmd: string; args: string[]; env: Record<string, string | undefined> }[] = [];
  let finish!: (code: number) => void;
  const run = (cmd: string, args: string[], env: Record<string, string | undefined>) => {
    calls.push({ cmd, args, env });
    return new Promise<number>((r) => (finish = r));
  };
  return { run, calls, finish: (code: number) => finish(code) };
}

describe("buildApp (npm start's build step)", () => {
  it("runs next build without its type-check and says what it does and roughly how long it takes", async () => {
    const time = fakeTime();
    const build = fakeRun();
    const lines: string[] = [];
    const done = buildApp({ run: build.run, log: (l: string) => lines.push(l), now: time.now, every: time.every, env: { PATH: "/bin" } });
    expect(build.calls).toHaveLength(1);
    expect(build.calls[0].cmd).toMatch(/node_modules[\\/]\.bin[\\/]next$/);
    expect(build.calls[0].args).toEqual(["build"]);
    expect(build.calls[0].env).toMatchObject({ PATH: "/bin", BENCHWORK_BUILD_TYPECHECK: "0" });
    expect(lines[0]).toMatch(/^benchwork: building the app .*without type-checking/);
    expect(lines[0]).toMatch(/about \d+(–\d+)? minutes? on 2 cores/);
    time.tick(75_000);
    build.finish(0);
    expect(await done).toBe(0);
    expect(lines.at(-1)).toBe("benchwork: build finished in 1 min 15 s");
    expect(time.pending()).toBe(0);
  });

  it("says every 30 s that it is still building while next build is quiet", async () => {
    const time = fakeTime();
    const build = fakeRun();
    const lines: string[] = [];
    const done = buildApp({ run: build.run, log: (l: string) => lines.push(l), now: time.now, every: time.every, env: {} });
    time.tick(29_999);
    expect(lines).toHaveLength(1);
    time.tick(1);
    expect(lines.at(-1)).toBe("benchwork: still building (30 s so far)…");
    time.tick(60_000);
    expect(lines.slice(1)).toEqual([
      "benchwork: still building (30 s so far)…",
      "benchwork: still building (1 min so far)…",
      "benchwork: still building (1 min 30 s so far)…",
    ]);
    build.finish(0);
    await done;
  });

  it("returns next build's exit code and says the build failed", async () => {
    const time = fakeTime();
    const build = fakeRun();
    const lines: string[] = [];
    const done = buildApp({ run: build.run, log: (l: string) => lines.push(l), now: time.now, every: time.every, env: {} });
    time.tick(5_000);
    build.finish(1);
    expect(await done).toBe(1);
    expect(lines.at(-1)).toBe("benchwork: next build failed (exit 1) after 5 s");
    expect(time.pending()).toBe(0);
  });
});

describe("next.config.ts type-check switch", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const load = async () => {
    vi.resetModules();
    return (await import("../next.config")).default;
  };

  it("skips Next's type-check when BENCHWORK_BUILD_TYPECHECK=0 (npm start), keeps it otherwise (npm run build)", async () => {
    vi.stubEnv("BENCHWORK_BUILD_TYPECHECK", "0");
    expect((await load()).typescript?.ignoreBuildErrors).toBe(true);
    vi.stubEnv("BENCHWORK_BUILD_TYPECHECK", undefined);
    expect((await load()).typescript?.ignoreBuildErrors ?? false).toBe(false);
  });
});
