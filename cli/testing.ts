/** Test helpers for CLI commands: a captured Io and a temp folder. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Io } from "./io";

/** An Io that records lines. */
export function captureIo(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), tty: false };
}

/** A fresh temp folder with the given files (JSON values are serialised). */
export function tempFiles(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "benchwork-cli-"));
  for (const [name, value] of Object.entries(files)) writeFileSync(path.join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
  return dir;
}

/**
 * `bench run` of the demo's GSM8K system and prompt on recorded candidates, the first the baseline.
 * @param candidates recorded candidate names without `recorded:` (e.g. `model-6b-finetuning`)
 */
export function gsm8kBenchRun(...candidates: string[]): string[] {
  return ["bench", "run", "--system", "grade-school-math", "--prompt", "solver", ...candidates.flatMap((c) => ["--candidate", `recorded:${c}`])];
}

/** `bench run` on the demo's GSM8K recorded candidates (6b-finetuning as the baseline, 6b-verification), for the CLI tests. */
export const GSM8K_BENCH_RUN: readonly string[] = gsm8kBenchRun("model-6b-finetuning", "model-6b-verification");
