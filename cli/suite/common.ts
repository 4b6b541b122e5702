/**
 * Shared steps of the code-first suite commands (`compile`, `run`, `publish`): find the config,
 * load and compile the benchmark, and turn failures into CLI errors with the right exit code
 * (a missing config is a usage error, 2; a benchmark that does not compile is a failure, 1).
 */
import { formatProblem, type CompileProblem } from "@/lib/suite/compile";
import { ConfigNotFoundError, loadBenchmark, resolveConfigPath, type LoadedBenchmark } from "@/server/suite/load";
import { CliError, usage } from "../io";

/** Most compile problems printed; the rest are counted. */
export const MAX_PRINTED_PROBLEMS = 100;

/** The compile problems as printed lines (at most {@link MAX_PRINTED_PROBLEMS}, then "… and N more"). */
export function problemLines(problems: readonly CompileProblem[]): string[] {
  const lines = problems.slice(0, MAX_PRINTED_PROBLEMS).map((p) => `  ${formatProblem(p)}`);
  if (problems.length > MAX_PRINTED_PROBLEMS) lines.push(`  … and ${problems.length - MAX_PRINTED_PROBLEMS} more`);
  return lines;
}

/**
 * Loads and compiles the benchmark a CLI argument names.
 * @param configArg a config file or a folder holding benchmark.config.ts (default: the working folder)
 * @throws CliError 2 when there is no config; CliError 1 listing every compile problem
 */
export async function loadForCli(configArg: string | undefined): Promise<LoadedBenchmark> {
  let configPath: string;
  try {
    configPath = resolveConfigPath(configArg);
  } catch (e) {
    if (e instanceof ConfigNotFoundError) throw usage(e.message);
    throw e;
  }
  const loaded = await loadBenchmark(configPath);
  if (!loaded.ok) {
    const n = loaded.problems.length;
    throw new CliError(`the benchmark does not compile (${n} problem${n === 1 ? "" : "s"}):\n${problemLines(loaded.problems).join("\n")}`, 1);
  }
  return loaded.benchmark;
}
