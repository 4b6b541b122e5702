/**
 * The bench page stays responsive during a run (issue #5): launches a 20,000-trial bench on the
 * database of a running `npm start` server (its in-process worker runs it against a loopback
 * scripted model server at 0 ms latency) and times GET requests of the bench page, the progress
 * route and the Cases tab while the trials run, and the results page once it finished.
 *
 * Run: `BENCHWORK_DB=<the server's db> npx tsx bench/responsiveness.ts --server http://127.0.0.1:3000`
 */
import { spawn } from "node:child_process";
import { openDatabase, migrateDatabase } from "../db/client";
import { addCases } from "../db/queries/cases";
import { createModelConfig } from "../db/queries/models";
import { createPrompt, createSystem, getSystem } from "../db/queries/systems";
import { getBenchProgress } from "../db/queries/benches";
import { launchFromRequest } from "../server/bench/prepare";
import { emptyCaseContent } from "../lib/library/case-content";
import { describeTimes, timeMany } from "./stats";

const args = process.argv.slice(2);
const base = args[args.indexOf("--server") + 1] ?? "http://127.0.0.1:3000";
const PORT = 4700;
const server = spawn(process.execPath, ["--import", "tsx", "e2e/fixtures/scripted-model-server.ts", "--port", String(PORT)], {
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((r) => server.stdout!.once("data", r));
process.on("exit", () => server.kill());

const db = openDatabase();
migrateDatabase(db);
const sys = `load-${Date.now()}`;
if (!(await getSystem(db, sys))) await createSystem(db, { id: sys, name: "Responsiveness load" });
const promptId = await createPrompt(db, { systemId: sys, name: "p", systemPrompt: "Answer." });
await addCases(
  db,
  Array.from({ length: 5000 }, (_, i) => ({
    systemId: sys,
    promptId,
    caseKey: `${sys}-${i}`,
    source: "custom" as const,
    content: { ...emptyCaseContent(), input: `Question ${i}?`, expected: "Scripted answer", evaluators: [{ kind: "contains" }] },
  })),
);
const model = await createModelConfig(db, { name: `loopback ${sys}`, provider: "openai-compatible", modelId: "m", baseUrl: `http://127.0.0.1:${PORT}/v1` });
const { id } = await launchFromRequest(db, {
  systemId: sys,
  promptId,
  candidates: [{ kind: "model", modelConfigId: model }],
  baseline: { kind: "none" },
  selection: { kind: "all" },
  budget: null,
  repeats: 4,
  concurrency: 64,
  timeoutSeconds: 60,
  maxSteps: 1,
  judgeModelConfigId: null,
  launchKey: `resp-${sys}`,
});
console.log(`bench #${id}: 20,000 trials launched; timing requests while the server's worker runs it`);
const get = async (path: string) => {
  const r = await fetch(base + path);
  await r.text();
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
};
while ((await getBenchProgress(db, id))!.status === "queued") await new Promise((r) => setTimeout(r, 50));
const during = {
  progress: await timeMany(20, () => get(`/api/benches/${id}/progress`)),
  page: await timeMany(10, () => get(`/systems/${sys}/benches/${id}`)),
  cases: await timeMany(10, () => get(`/systems/${sys}/library`)),
};
const p = (await getBenchProgress(db, id))!;
console.log(`during the run (${p.done + p.error}/${p.total} done when sampling ended):`);
for (const [k, v] of Object.entries(during)) console.log(`  ${k.padEnd(9)} ${describeTimes(v)}`);
while (["queued", "running"].includes((await getBenchProgress(db, id))!.status)) await new Promise((r) => setTimeout(r, 200));
const after = await timeMany(10, () => get(`/systems/${sys}/benches/${id}`));
console.log(`results page of the finished 20,000-trial bench (first matrix page): ${describeTimes(after)}`);
server.kill();
process.exit(0);
