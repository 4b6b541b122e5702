import { afterEach, describe, expect, it, vi } from "vitest";
import { tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { mockUsage } from "@/lib/runtime/test-support/mock-model";
import type { TrialRecord } from "@/lib/runtime/trial-record";
import { createAgent, type AgentRunner } from "./agent";
import type { CaseChecker, CaseVerdicts } from "./checks";
import { DEFAULT_TIMEOUT_SECONDS, runSuite, type RunSuiteOptions } from "./runner";
import { releaseCase } from "./testing";
import type { CaseResult, SuiteCase } from "./types";

function suiteCase(id: string, more: Partial<SuiteCase> = {}): SuiteCase {
  return {
    ...releaseCase({
      id,
      prompt: `prompt of ${id}`,
      evaluators: [{ kind: "non_empty" }],
      labels: ["t"],
      hasSetup: Boolean(more.setup),
      hasTeardown: Boolean(more.teardown),
    }),
    ...more,
  };
}

function trial(output: string, more: Partial<TrialRecord> = {}): TrialRecord {
  return {
    output,
    toolCalls: [],
    normalizedToolCalls: [],
    toolResults: [],
    steps: [],
    finishReason: "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
    latencyMs: 1,
    renderedMessages: [],
    ...more,
  };
}

/** Passes when the output is "good". */
const checker: CaseChecker = async (_c, t) => ({
  judgePassed: null,
  judgeReason: null,
  judgeScore: null,
  reliabilityPassed: null,
  evaluatorPassed: t.output === "good",
  evaluatorScore: t.output === "good" ? 1 : 0,
  evaluatorMessage: t.output === "good" ? "ok" : "bad output",
  evaluatorDetails: null,
  errors: [],
  checks: [],
});

/** Verdicts with only the evaluator set. */
function verdictsOf(evaluatorPassed: boolean | null): CaseVerdicts {
  return {
    judgePassed: null,
    judgeReason: null,
    judgeScore: null,
    reliabilityPassed: null,
    evaluatorPassed,
    evaluatorScore: null,
    evaluatorMessage: null,
    evaluatorDetails: null,
    errors: [],
    checks: [],
  };
}

const goodAgent: AgentRunner = async () => trial("good");
/**
 * The real agent (the trial engine) on a model that never answers and ignores its abort signal:
 * only the case's deadline or the suite's cancellation ends it. Its clock is the (fakeable) Date.
 */
const stuckAgent: AgentRunner = createAgent({
  model: new MockLanguageModelV3({ doGenerate: () => new Promise<never>(() => {}) }),
  tools: {},
  now: () => Date.now(),
});

function options(more: Partial<RunSuiteOptions> = {}): RunSuiteOptions {
  let n = 0;
  return { agent: goodAgent, checker, newSessionId: () => `session-${++n}`, ...more };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("runSuite", () => {
  it("runs every case in order and fills the result fields", async () => {
    const agent: AgentRunner = async (c) =>
      trial(c.id === "b" ? "bad" : "good", {
        toolCalls: [
          { toolCallId: "1", toolName: "lookup_policy", input: {} },
          { toolCallId: "2", toolName: "get_order", input: {} },
        ],
      });
    const s = await runSuite([suiteCase("a"), suiteCase("b")], options({ agent }));
    expect([s.total, s.passed, s.failed, s.status]).toEqual([2, 1, 1, "FAIL"]);
    expect(s.results[0]).toMatchObject({
      name: "a",
      tags: ["t"],
      sessionId: "session-1",
      output: "good",
      toolsCalled: ["lookup_policy", "get_order"],
      evaluatorPassed: true,
      evaluatorScore: 1,
      evaluatorMessage: "ok",
      error: null,
      passed: true,
      skipped: false,
      timedOut: false,
    });
    expect(s.results[1]).toMatchObject({
      name: "b",
      sessionId: "session-2",
      evaluatorPassed: false,
      evaluatorMessage: "bad output",
      passed: false,
      error: null,
    });
  });

  it("an empty selection is FAIL", async () => {
    expect((await runSuite([], options())).status).toBe("FAIL");
  });

  it("records checker errors and marks the case failed", async () => {
    const errChecker: CaseChecker = async (c, t) => ({
      ...(await checker(c, t)),
      evaluatorPassed: null,
      errors: ["evaluator: function: evaluator infrastructure failure: evaluate threw Error: x"],
    });
    const s = await runSuite([suiteCase("a")], options({ checker: errChecker }));
    expect(s.results[0]).toMatchObject({
      passed: false,
      evaluatorPassed: null,
      error: "evaluator: function: evaluator infrastructure failure: evaluate threw Error: x",
    });
  });

  describe("setup and teardown", () => {
    it("passes setup's value and the result to teardown on success", async () => {
      const seen: [unknown, CaseResult][] = [];
      const c = suiteCase("a", { setup: async () => ({ db: "ready" }), teardown: (ctx, r) => void seen.push([ctx, { ...r }]) });
      const s = await runSuite([c], options());
      expect(s.results[0].passed).toBe(true);
      expect(seen).toHaveLength(1);
      expect(seen[0][0]).toEqual({ db: "ready" });
      expect(seen[0][1]).toMatchObject({ name: "a", passed: true });
    });

    it("runs teardown after a failure, a run error and a timeout", async () => {
      const torn: string[] = [];
      const teardown = (_: unknown, r: CaseResult) => void torn.push(`${r.name}:${r.passed}:${r.timedOut}`);
      const agent: AgentRunner = async (c, call) => {
        if (c.id === "failing") return trial("bad");
        if (c.id === "erroring") return trial("", { error: { kind: "server", retryable: true, status: 500, message: "Scripted error 500." } });
        return stuckAgent(c, call);
      };
      const s = await runSuite(
        [suiteCase("failing", { teardown }), suiteCase("erroring", { teardown }), suiteCase("slow", { teardown, timeoutSeconds: 0.05 }), suiteCase("after")],
        options({ agent: async (c, call) => (c.id === "after" ? trial("good") : agent(c, call)) }),
      );
      expect(torn).toEqual(["failing:false:false", "erroring:false:false", "slow:false:true"]);
      expect(s.results[1]).toMatchObject({ error: "run: server: Scripted error 500.", evaluatorPassed: null, passed: false });
      expect(s.results[2]).toMatchObject({ timedOut: true, error: "run: timed out after 0.05 s", passed: false, output: null });
      expect(s.results[3]).toMatchObject({ passed: true });
    });

    it("does not run the case or teardown when setup throws", async () => {
      const agent = vi.fn(goodAgent);
      const teardown = vi.fn();
      const s = await runSuite(
        [
          suiteCase("a", {
            setup: () => {
              throw new Error("no database");
            },
            teardown,
          }),
        ],
        options({ agent }),
      );
      expect(s.results[0]).toMatchObject({ error: "setup: no database", passed: false });
      expect(agent).not.toHaveBeenCalled();
      expect(teardown).not.toHaveBeenCalled();
    });

    it("records a teardown error and fails the case", async () => {
      const s = await runSuite([suiteCase("a", { teardown: () => Promise.reject(new Error("cleanup failed")) })], options());
      expect(s.results[0]).toMatchObject({ error: "teardown: cleanup failed", evaluatorPassed: true, passed: false });
    });

    it("counts setup and teardown in durationSeconds, outside the timeout", async () => {
      let t = 0;
      const c = suiteCase("a", {
        timeoutSeconds: 0.05,
        setup: async () => {
          await new Promise((r) => setTimeout(r, 80));
          t += 1000;
        },
        teardown: () => {
          t += 500;
        },
      });
      const s = await runSuite([c], options({ now: () => t }));
      expect(s.results[0]).toMatchObject({ passed: true, timedOut: false, durationSeconds: 1.5 });
    });
  });

  describe("timeouts", () => {
    it("falls back to the runner's default, then to 120 s", async () => {
      const s = await runSuite([suiteCase("a")], options({ agent: stuckAgent, defaultTimeoutSeconds: 0.02 }));
      expect(s.results[0]).toMatchObject({ timedOut: true, error: "run: timed out after 0.02 s" });
      const own = await runSuite([suiteCase("a", { timeoutSeconds: 0.03 })], options({ agent: stuckAgent, defaultTimeoutSeconds: 999 }));
      expect(own.results[0].error).toBe("run: timed out after 0.03 s");

      expect(DEFAULT_TIMEOUT_SECONDS).toBe(120);
      vi.useFakeTimers();
      const pending = runSuite([suiteCase("a")], options({ agent: stuckAgent }));
      await vi.advanceTimersByTimeAsync(119_000);
      let settled = false;
      void pending.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await pending).results[0].error).toBe("run: timed out after 120 s");
    });

    it("records the tool call in flight when the case times out (its tool never returned)", async () => {
      vi.useFakeTimers();
      // A first round finished; the model then asked for get_order, whose tool never returns.
      const tools = {
        lookup_policy: tool({ description: "Policy.", inputSchema: z.object({ topic: z.string() }), execute: async () => ({ policy: "30 days" }) }),
        get_order: tool({ description: "Order.", inputSchema: z.object({ orderId: z.string() }), execute: () => new Promise<string>(() => {}) }),
      };
      const replies = [
        { id: "c1", name: "lookup_policy", input: '{"topic":"returns"}' },
        { id: "c2", name: "get_order", input: '{"orderId":"o1"}' },
      ];
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          const r = replies.shift()!;
          return {
            content: [{ type: "tool-call", toolCallId: r.id, toolName: r.name, input: r.input }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage: mockUsage(1, 1),
            warnings: [],
          };
        },
      });
      const agent = createAgent({ model, tools, now: () => Date.now() });
      const details: (TrialRecord | null)[] = [];
      const pending = runSuite(
        [suiteCase("a", { timeoutSeconds: 5, tools: ["lookup_policy", "get_order"] })],
        options({ agent, onCaseEnd: (_c, _r, d) => details.push(d.trial) }),
      );
      await vi.advanceTimersByTimeAsync(5_000);
      const s = await pending;
      expect(s.results[0]).toMatchObject({ timedOut: true, toolsCalled: ["lookup_policy", "get_order"], error: "run: timed out after 5 s", passed: false });
      // -v shows the calls too: the partial trace, the call in flight without a result.
      expect(details[0]?.toolCalls.map((c) => [c.toolName, c.input])).toEqual([
        ["lookup_policy", { topic: "returns" }],
        ["get_order", { orderId: "o1" }],
      ]);
      expect(details[0]?.toolResults.map((r) => r.toolCallId)).toEqual(["c1"]);
    });

    it("aborts the model call's signal when the case times out", async () => {
      let aborted: unknown = null;
      const model = new MockLanguageModelV3({
        doGenerate: ({ abortSignal }) =>
          new Promise<never>((_, reject) =>
            abortSignal?.addEventListener("abort", () => {
              aborted = abortSignal.reason;
              reject(abortSignal.reason as Error);
            }),
          ),
      });
      const s = await runSuite([suiteCase("a", { timeoutSeconds: 0.02 })], options({ agent: createAgent({ model, tools: {} }) }));
      expect((aborted as DOMException).name).toBe("TimeoutError");
      expect(s.results[0]).toMatchObject({ timedOut: true, output: null, evaluatorPassed: null });
    });

    it("does not let the case timeout eat the checks: a slow evaluator finishes after it and the case is not timed out", async () => {
      vi.useFakeTimers();
      let finishChecks: () => void = () => {};
      const slowChecker: CaseChecker = (c, t, o) =>
        new Promise((resolve) => {
          finishChecks = () => void checker(c, t, o).then(resolve);
        });
      const pending = runSuite([suiteCase("a", { timeoutSeconds: 1 })], options({ checker: slowChecker }));
      // The evaluator takes four times the case's timeout (still within its own deadline).
      await vi.advanceTimersByTimeAsync(4_000);
      finishChecks();
      await vi.advanceTimersByTimeAsync(0);
      expect((await pending).results[0]).toMatchObject({ timedOut: false, error: null, evaluatorPassed: true, passed: true });
    });

    it("gives the checks (the judge's model calls) a deadline of their own, equal to the case timeout, that ends in a check error, not a timeout", async () => {
      vi.useFakeTimers();
      let reason: unknown = null;
      const judgeChecker: CaseChecker = (_c, _t, o) =>
        new Promise((resolve) =>
          o!.abortSignal!.addEventListener("abort", () => {
            reason = o!.abortSignal!.reason;
            resolve({ ...verdictsOf(null), judgeReason: null, errors: [`judge: judge call failed: ${(reason as Error).message}`] });
          }),
        );
      const pending = runSuite([suiteCase("a", { timeoutSeconds: 2 })], options({ checker: judgeChecker }));
      await vi.advanceTimersByTimeAsync(1_999);
      expect(reason).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect((reason as DOMException).name).toBe("TimeoutError");
      expect((await pending).results[0]).toMatchObject({
        timedOut: false,
        passed: false,
        error: "judge: judge call failed: the checks did not finish within 2 s",
      });
    });
  });

  describe("hooks", () => {
    it("records a throwing hook as a hook: error on that case and goes on", async () => {
      const s = await runSuite(
        [suiteCase("a"), suiteCase("b"), suiteCase("c")],
        options({
          onCaseStart: (c) => {
            if (c.id === "a") throw new Error("start boom");
          },
          onCaseEnd: (c) => {
            if (c.id === "b") throw new Error("end boom");
          },
        }),
      );
      expect(s.results.map((r) => [r.name, r.error, r.passed])).toEqual([
        ["a", "hook: onCaseStart threw: start boom", false],
        ["b", "hook: onCaseEnd threw: end boom", false],
        ["c", null, true],
      ]);
    });

    it("treats an async hook as an error (hooks are synchronous) and reports run events", async () => {
      const events: string[] = [];
      const agent: AgentRunner = async (_c, call) => {
        const step = { text: "good", toolCalls: [], toolResults: [], finishReason: "stop", usage: { inputTokens: 0, outputTokens: 0 } };
        call.onEvent?.({ type: "step", index: 0, step });
        return trial("good", { steps: [step] });
      };
      const s = await runSuite(
        [suiteCase("a"), suiteCase("b")],
        options({
          agent,
          onCaseStart: async (c) => {
            if (c.id === "a") throw new Error("never seen");
          },
          onRunEvent: (c, e) => {
            events.push(`${c.id}:${e.type}:${e.index}`);
            if (c.id === "b") throw new Error("event boom");
          },
        }),
      );
      expect(events).toEqual(["a:step:0", "b:step:0"]);
      expect(s.results[0].error).toBe("hook: onCaseStart returned a promise; hooks must be synchronous (presentation only)");
      expect(s.results[1].error).toBe(
        "hook: onCaseStart returned a promise; hooks must be synchronous (presentation only); hook: onRunEvent threw: event boom",
      );
    });
  });

  describe("cancellation", () => {
    it("stops the suite; the running case is cancelled, unrun cases are skipped and still reported", async () => {
      const controller = new AbortController();
      const ended: string[] = [];
      const torn: string[] = [];
      const agent: AgentRunner = (c, call) => {
        if (c.id !== "b") return goodAgent(c, call);
        setTimeout(() => controller.abort(new Error("Ctrl-C")), 10);
        return stuckAgent(c, call);
      };
      const s = await runSuite(
        [suiteCase("a"), suiteCase("b", { teardown: () => void torn.push("b") }), suiteCase("c"), suiteCase("d")],
        options({ agent, signal: controller.signal, onCaseEnd: (c, r) => void ended.push(`${c.id}:${r.skipped}`) }),
      );
      expect(s.results.map((r) => [r.name, r.passed, r.skipped, r.error])).toEqual([
        ["a", true, false, null],
        ["b", false, false, "run: cancelled"],
        ["c", false, true, null],
        ["d", false, true, null],
      ]);
      expect(s.results[2]).toMatchObject({ sessionId: "", durationSeconds: 0, tags: ["t"] });
      expect([s.total, s.passed, s.failed, s.status]).toEqual([4, 1, 3, "FAIL"]);
      expect(ended).toEqual(["a:false", "b:false", "c:true", "d:true"]);
      expect(torn).toEqual(["b"]);
    });

    it("skips everything when cancelled before the start", async () => {
      const controller = new AbortController();
      controller.abort();
      const s = await runSuite([suiteCase("a"), suiteCase("b")], options({ signal: controller.signal }));
      expect(s.results.map((r) => r.skipped)).toEqual([true, true]);
    });
  });

  it("runs a few cases at once and keeps the selection order", async () => {
    let inFlight = 0;
    let most = 0;
    const agent: AgentRunner = async (c) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, c.id === "a" ? 40 : 5));
      inFlight--;
      return trial("good");
    };
    const s = await runSuite(
      ["a", "b", "c", "d", "e"].map((id) => suiteCase(id)),
      options({ agent, concurrency: 2 }),
    );
    expect(s.results.map((r) => r.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(most).toBe(2);
    expect(s.status).toBe("PASS");
  });
});

// Type check: a checker result carries every field the runner copies.
const _verdicts: CaseVerdicts = {
  judgePassed: null,
  judgeReason: null,
  judgeScore: null,
  reliabilityPassed: null,
  evaluatorPassed: null,
  evaluatorScore: null,
  evaluatorMessage: null,
  evaluatorDetails: null,
  errors: [],
  checks: [],
};
void _verdicts;
