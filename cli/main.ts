/**
 * The `benchwork` command line (package.json `bin`; `npx benchwork …` from the project root).
 * Commands share the core with the web app. Exit codes: 0 success, 1 a failure found by the
 * command, 2 a usage error.
 */
import { Command, CommanderError, Option } from "commander";
import { CliError, processIo, type Io } from "./io";
import { evaluateCommand } from "./commands/evaluate";
import { datasetImportCommand } from "./commands/dataset-import";
import { datasetInspectCommand } from "./commands/dataset-inspect";
import { benchRunCommand } from "./commands/bench-run";

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Builds the command tree; actions store their exit code in `result.code`. */
function program(io: Io, result: { code: number }) {
  const p = new Command("benchwork")
    .description("Benchwork: test library and bench workbench for LLM applications")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError("(run with --help for usage)");

  p.command("evaluate")
    .description("Print the check results of one trial")
    .requiredOption("--spec <file>", "JSON file: a list of evaluator declarations")
    .requiredOption("--trial <file>", "JSON file: { output, toolCalls, caseData, finishReason, usage }")
    .option("--json", "print one JSON object")
    .addOption(new Option("--judge-model <name>", "model configuration (from the database) for judge checks"))
    .action(async (o) => {
      result.code = await evaluateCommand(o, io);
    });

  const dataset = p.command("dataset").description("Inspect data files and import them as dataset versions");
  dataset
    .command("inspect")
    .description("Print what the importer sees in a CSV, XLSX, JSON or JSONL file")
    .argument("<file>", "the data file")
    .option("--sheet <name>", "XLSX: the worksheet to read")
    .option("--json", "print one JSON object")
    .action(async (file: string, o) => {
      result.code = await datasetInspectCommand(file, o, io);
    });
  dataset
    .command("import")
    .description("Save a file as a new dataset version of a system (BENCHWORK_DB)")
    .argument("<file>", "the data file")
    .requiredOption("--system <id>", "the system the dataset belongs to")
    .requiredOption("--name <name>", "dataset name; an existing name gets its next version")
    .option("--mapping <file>", "JSON file: column roles (default: the suggested mapping)")
    .option("--sheet <name>", "XLSX: the worksheet to read")
    .option("--json", "print the saved version as JSON")
    .action(async (file: string, o) => {
      result.code = await datasetImportCommand(file, o, io);
    });

  const bench = p.command("bench").description("Run benches headless on the app's database");
  bench
    .command("run")
    .description("Plan, launch and wait for a bench; print the summary and the recommendation")
    .requiredOption("--system <id>", "the system")
    .requiredOption("--prompt <name>", "the target prompt")
    .option("--candidate <spec>", "recorded:COLUMN or model:CONFIG[@REVISION] (repeatable)", collect, [])
    .option("--baseline <index>", "0-based candidate index, 'last' (the last bench only) or 'none' (default 0)")
    .option("--cases <selection>", "all | tag:T | source:S | dataset:NAME", "all")
    .option("--budget <n>", "at most N cases")
    .option("--repeats <n>", "trials per case (1-10)", "1")
    .option("--concurrency <n>", "trials at once (1-256)", "8")
    .option("--timeout <seconds>", "per-trial timeout", "60")
    .option("--judge <config>", "model configuration that judges the rubric's criteria")
    .option("--json-output <path>", "write the results as JSON")
    .action(async (o) => {
      result.code = await benchRunCommand(o, io);
    });

  return p;
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code.
 * Never throws: errors are printed to stderr.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const result = { code: 0 };
  try {
    await program(io, result).parseAsync(argv, { from: "user" });
    return result.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end here with exitCode 0; every other parse error is a usage error.
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof CliError) {
      io.err(`benchwork: ${e.message}`);
      return e.exitCode;
    }
    io.err(`benchwork: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}
