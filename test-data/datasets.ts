/**
 * Where the tests and benchmarks find the public dataset slices (test-data/README.md): the files
 * the demo workspace also uses are read from db/seed/data/, the rest from test-data/. Paths are
 * resolved from this file, so they hold in any clone and from any working directory.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Files of the demo workspace (db/seed/data/), by their name in the dataset layout below. */
const IN_SEED = new Set([
  "banking77_test_2per_intent.csv",
  "bfcl_v4_simple75_parallel25.jsonl",
  "recorded/gsm8k_example_model_solutions_200.jsonl",
  "recorded/bfcl_simple_python_50_pr_recorded_outputs.jsonl",
]);

/**
 * The absolute path of a dataset file.
 * @param name the file's name in the dataset layout, e.g. `gsm8k_test_first100.jsonl` or
 *   `recorded/mt_bench_recorded_3models.csv` (recorded-output datasets sit under `recorded/`)
 */
export function datasetPath(name: string): string {
  return IN_SEED.has(name) ? path.join(ROOT, "db", "seed", "data", path.basename(name)) : path.join(ROOT, "test-data", name);
}
