// Worker-thread host of the custom-evaluator sandbox (see sandbox.ts, WorkerSandbox).
// Loads QuickJS once, then answers { id, code, input, timeoutMs, probe } messages one at a time
// with { id, outcome }. The parent terminates this thread when a call overruns its deadline
// (e.g. inside one long built-in call, where QuickJS's interrupt handler is not consulted).
import { parentPort, workerData } from "node:worker_threads";
import { getQuickJS } from "quickjs-emscripten";
import { createCoreSandbox } from "./sandbox-core.mjs";

const quickjs = await getQuickJS();
const core = createCoreSandbox(quickjs, workerData);

parentPort.on("message", (msg) => {
  const outcome = core.run(msg.code, msg.input, msg.timeoutMs, msg.probe === true);
  parentPort.postMessage({ id: msg.id, outcome });
});
parentPort.postMessage({ ready: true });
