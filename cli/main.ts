/**
 * The `benchwork` command line (package.json `bin`; `npx benchwork …` from the project root).
 * Commands share the core with the web app. Exit codes: 0 success, 1 a failure found by the
 * command, 2 a usage error.
 */
import { Command, CommanderError, Option } from "commander";
import { CliError, processIo, type Io } from "./io";
import { evaluateCommand } from "./commands/evaluate";

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
