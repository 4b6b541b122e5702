import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { main } from "../main";
import { captureIo } from "../testing";
import { withCliDatabase } from "../test-database";
import { openDatabase } from "@/db/client";
import { seedDemoWorkspace } from "@/db/seed/demo";
import { listBenches } from "@/db/queries/benches";

const { dir, file } = withCliDatabase("benchwork-bench-cli-", seedDemoWorkspace);

const base = ["bench", "run", "--system", "grade-school-math", "--prompt", "solver"];

describe("benchwork bench run", () => {
  it("runs the recorded GSM8K bench, writes the JSON, and exits 1 when the best candidate is blocked by regressions", async () => {
    const io = captureIo();
    const out = path.join(dir, "out", "gsm8k.json");
    const code = await main(
      [...base, "--candidate", "recorded:model-6b-finetuning", "--candidate", "recorded:model-175b-verification", "--json-output", out],
      io,
    );
    expect(code).toBe(1);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.schemaVersion).toBe(1);
    expect(r.status).toBe("finished");
    expect(r.manifest).toMatchObject({ included: 200, excluded: 0 });
    expect(r.candidates.map((c: { label: string; passed: number; scored: number; failed: number }) => [c.label, c.passed, c.scored, c.failed])).toEqual([
      ["model-6b-finetuning", 45, 200, 155],
      ["model-175b-verification", 110, 200, 90],
    ]);
    expect(r.candidates[1].regressions.length).toBeGreaterThan(0);
    // Improvements are listed beside the regressions (110 - 45 passes more, net of what it broke).
    expect(r.candidates[1].fixes.length - r.candidates[1].regressions.length).toBe(110 - 45);
    expect(r.candidates[1].fixes[0]).toMatchObject({ against: "baseline", caseRevisionId: expect.any(Number) });
    expect(r.recommendation.lastBench).toBeNull();
    expect(r.recommendation.recommended).toBe("model-6b-finetuning");
    expect(io.stdout.join("\n")).toMatch(/Keep the baseline model-6b-finetuning/);
    // it shows in the app's history like any other bench
    const db = openDatabase(file);
    expect((await listBenches(db, "grade-school-math"))[0].id).toBe(r.benchId);
  }, 60_000);

  it("exits 0 when the recommended candidate breaks nothing; --baseline none still compares with the last bench", async () => {
    const io = captureIo();
    const code = await main([...base, "--candidate", "recorded:model-175b-verification", "--baseline", "none", "--budget", "20"], io);
    expect(code).toBe(0);
    expect(io.stdout.join("\n")).toMatch(
      /Recommended: model-175b-verification \(45\.0% of 20 scored checks\); it breaks no check that passed in the last bench \(#\d+, model-6b-finetuning\)/,
    );
    // The weaker model after it breaks problems the last bench solved: with --baseline none this
    // exited 0 with "with no regression", compared with nothing.
    const broken = captureIo();
    expect(await main([...base, "--candidate", "recorded:model-6b-finetuning", "--baseline", "none", "--budget", "20"], broken)).toBe(1);
    expect(broken.stdout.join("\n")).toMatch(
      /No candidate is recommended: every candidate that passed a check breaks a previously passing check \(model-6b-finetuning: [1-9]/,
    );
  }, 60_000);

  it("runs only the retained regression cases with --cases source:retained", async () => {
    // The first bench of this file retained the baseline's failing problems.
    const io = captureIo();
    const code = await main([...base, "--candidate", "recorded:model-175b-verification", "--baseline", "none", "--cases", "source:retained"], io);
    expect(code).not.toBe(2);
    const joined = /^bench #\d+: ([1-9]\d*) cases included \((\d+) retained regression cases joined\)/.exec(io.stdout[0]);
    expect(joined).not.toBeNull();
    expect(joined![2]).toBe(joined![1]);
  }, 60_000);

  it("--no-retained leaves the retained regression cases out of the selection", async () => {
    const out = path.join(dir, "no-retained.json");
    const io = captureIo();
    await main([...base, "--candidate", "recorded:model-6b-finetuning", "--no-retained", "--json-output", out], io);
    expect(io.stdout[0]).toMatch(/^bench #\d+: 200 cases included \(retained regression cases left out\), 0 excluded/);
    expect(JSON.parse(readFileSync(out, "utf8")).manifest).toMatchObject({ included: 200, excluded: 0, retainedJoined: 0, includeRetained: false });
    const none = captureIo();
    expect(await main([...base, "--candidate", "recorded:model-6b-finetuning", "--no-retained", "--cases", "source:retained"], none)).toBe(2);
    expect(none.stderr.join("\n")).toMatch(/No case of prompt solver matches source retained \(retained cases are left out/);
  }, 60_000);

  it("exits 2 on usage errors", async () => {
    const cases: [string[], RegExp][] = [
      [["bench", "run", "--system", "nope", "--prompt", "solver", "--candidate", "recorded:x"], /no system "nope" in .* \(it has .*grade-school-math/],
      [[...base.slice(0, 4), "--prompt", "other", "--candidate", "recorded:x"], /has no prompt "other"/],
      [[...base, "--candidate", "magic:x"], /write recorded:COLUMN or model:CONFIG/],
      [[...base, "--candidate", "model:missing"], /no model configuration named "missing"/],
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--cases", "color:red"], /--cases must be/],
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--repeats", "50"], /Trials per case must be a whole number from 1 to 10/],
      // After a bench, retained copies exist: a selection matching no case used to run just those.
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--cases", "tag:none-such"], /No case of prompt solver matches tag none-such/],
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--cases", "dataset:nope"], /No case of prompt solver matches dataset nope/],
      // A mistyped recorded column used to run as 200 skipped trials and exit 0.
      [
        [...base, "--candidate", "recorded:model-6b-finetuning", "--candidate", "recorded:model-175b-verificaton"],
        /no recorded outputs named "model-175b-verificaton" \(it has [^)]*model-175b-verification[^)]*\)/,
      ],
      [
        [...base, "--candidate", "recorded:model-6b-finetuning", "--baseline", "foo"],
        /--baseline must be a candidate's index \(0 for the first --candidate\), last or none \(got "foo"\)/,
      ],
      [[...base, "--candidate", "model:scripted@1@2"], /write model:CONFIG or model:CONFIG@REVISION \(one @\)/],
      // An output file that cannot be written is found before the bench runs.
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--json-output", "/proc/benchwork.json"], /--json-output \/proc\/benchwork.json: cannot write/],
      [[...base, "--candidate", "recorded:model-6b-finetuning", "--json-output", dir], /--json-output .*: is a directory/],
    ];
    const db = openDatabase(file);
    const before = (await listBenches(db, "grade-school-math")).length;
    for (const [argv, message] of cases) {
      const io = captureIo();
      expect(await main(argv, io), argv.join(" ")).toBe(2);
      expect(io.stderr.join("\n")).toMatch(message);
    }
    expect((await listBenches(db, "grade-school-math")).length).toBe(before);
  }, 60_000);

  it("a model that is down: trials end as errors, the reasons are printed and in the JSON, exit 1", async () => {
    const { createModelConfig } = await import("@/db/queries/models");
    const db = openDatabase(file);
    const { closedPort } = await import("@/e2e/fixtures/closed-port");
    const port = await closedPort();
    await createModelConfig(db, { name: "down", provider: "openai-compatible", modelId: "m", baseUrl: `http://127.0.0.1:${port}/v1` });
    const io = captureIo();
    const out = path.join(dir, "down.json");
    const code = await main([...base, "--candidate", "model:down", "--baseline", "none", "--budget", "3", "--json-output", out], io);
    expect(code).toBe(1);
    const r = JSON.parse(readFileSync(out, "utf8"));
    expect(r.candidates[0].trials).toMatchObject({ total: 3, error: 3 });
    expect(r.errors).toEqual([{ message: expect.stringContaining(`ECONNREFUSED 127.0.0.1:${port}`), trials: 3 }]);
    expect(io.stdout.join("\n")).toMatch(/3 × .*ECONNREFUSED/);
  }, 60_000);

  it("exits 2 with one line when the database is missing or not a database, creating nothing", async () => {
    const { writeFileSync, existsSync } = await import("node:fs");
    const junk = path.join(dir, "junk.db");
    writeFileSync(junk, "this is not a database, just text that is long enough to have a header page.".repeat(20));
    const missing = path.join(dir, "no", "such", "b.db");
    for (const [db, message] of [
      [missing, /no database at .*b\.db: create one with `npm run db:seed` .*or set BENCHWORK_DB/],
      [junk, /cannot open the database .*junk\.db: file is not a database/],
    ] as const) {
      process.env.BENCHWORK_DB = db;
      const io = captureIo();
      try {
        expect(await main([...base, "--candidate", "recorded:model-6b-finetuning"], io)).toBe(2);
      } finally {
        process.env.BENCHWORK_DB = file;
      }
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(message);
    }
    expect(existsSync(path.dirname(missing))).toBe(false);
  }, 60_000);
});

describe("benchwork bench run from another directory", () => {
  it("finds the migrations and the trial threads' code from its own install, wherever it is run", async () => {
    const { spawn } = await import("node:child_process");
    const root = process.cwd();
    const out = path.join(dir, "elsewhere.json");
    const child = spawn(
      process.execPath,
      [
        path.join(root, "cli/bin.mjs"),
        ...base,
        "--candidate",
        "recorded:model-6b-finetuning",
        "--candidate",
        "recorded:model-175b-verification",
        "--json-output",
        out,
      ],
      {
        cwd: tmpdir(),
        env: { ...process.env, BENCHWORK_DB: file, BENCHWORK_ROOT: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(err).not.toMatch(/ENOENT|migrations/);
    expect(code).toBe(1); // finished; the higher-scoring model breaks problems the baseline solved
    expect(JSON.parse(readFileSync(out, "utf8")).manifest.included).toBe(200);
  }, 60_000);
});
