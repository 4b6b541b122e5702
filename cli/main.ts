/**
 * The `benchwork` command line (package.json `bin`; `npx benchwork …` from the project root).
 * Commands share the core with the web app. Exit codes: 0 success, 1 a failure found by the
 * command, 2 a usage error.
 */
import { Command, CommanderError, Option } from "commander";
import { StoreUnreachableError } from "@/db/pg/client";
import { CliError, processIo, type Io } from "./io";
import { evaluateCommand } from "./commands/evaluate";
import { datasetImportCommand } from "./commands/dataset-import";
import { datasetInspectCommand } from "./commands/dataset-inspect";
import { benchRunCommand } from "./commands/bench-run";
import { compileCommand } from "./commands/compile";
import { runCommand } from "./commands/run";
import { publishCommand } from "./commands/publish";
import { generateCommand } from "./commands/generate";
import { userAddCommand } from "./commands/user-add";

const collect = (v: string, prev: string[] = []) => [...prev, v];
const SERVER_HELP = "work on this team server through its HTTP API instead of BENCHWORK_DB (API token from BENCHWORK_TOKEN)";

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
    .option("--header-row <n>", "line (CSV) or sheet row (XLSX) of the column names; 0 = the first non-empty row (default: detected)")
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
    .option("--header-row <n>", "line (CSV) or sheet row (XLSX) of the column names; 0 = the first non-empty row (default: detected)")
    .option("--use <prompt>", "also add the version's golden cases to this prompt's library (Use a dataset)")
    .option(
      "--checks <kinds>",
      "checks every case gets, comma-separated: exact, contains, answer_bank, gsm8k, regex, json, expected_tool_calls, or none (default: the proposed ones)",
    )
    .option(
      "--on-collision <choice>",
      "case IDs the prompt already uses: skip, prefix (with the dataset's name) or revise (cases from an earlier version of this dataset)",
    )
    .option("--json", "print the saved version as JSON")
    .option("--server <url>", SERVER_HELP)
    .action(async (file: string, o) => {
      result.code = await datasetImportCommand(file, o, io);
    });

  const bench = p.command("bench").description("Run benches headless on the app's database");
  bench
    .command("run")
    .description("Plan, launch and wait for a bench; print the summary and the recommendation")
    .requiredOption("--system <id>", "the system")
    .requiredOption("--prompt <name>", "the target prompt")
    .option("--candidate <spec>", "recorded:COLUMN or model:CONFIG[@REVISION] (REVISION: 3, r3, current or previous; repeatable)", collect, [])
    .option(
      "--baseline <index>",
      "0-based candidate index, or 'last'/'none' (no baseline candidate); the last bench of the prompt is always compared (default 0)",
    )
    .option("--cases <selection>", "all | tag:T | source:S | dataset:NAME", "all")
    .option("--no-retained", "leave out retained regression cases (cases that failed in earlier benches join the selection by default)")
    .option("--budget <n>", "at most N cases")
    .option("--repeats <n>", "trials per case (1-10)", "1")
    .option("--concurrency <n>", "trials at once (1-256)", "8")
    .option("--timeout <seconds>", "per-trial timeout", "60")
    .option("--judge <config>", "model configuration that judges the rubric's criteria")
    .option("--generate-criteria <n>", "generate N criteria at launch (0-50), accepted into the library and pinned to the bench")
    .option("--generate-scenarios <n>", "generate N scenarios at launch (0-50); they join after the explicit and retained cases")
    .option("--generator <config>", "model configuration that generates (default: the first model candidate's, else the judge's)")
    .option("--json-output <path>", "write the results as JSON")
    .option("--markdown <path>", "write a summary to paste as a pull-request comment (headline, a table with intervals, the blocking regressions)")
    .option(
      "--fail-on <what>",
      "comma-separated, repeatable: worse = exit 1 when the primary comparison is worse or its candidate is blocked (a regression or a gate limit); inconclusive = that, or when it cannot tell the candidates apart (only a better, unblocked candidate passes)",
      collect,
      undefined,
    )
    .option("--rerun-errors", "after the run, rerun the errored trials (429s, timeouts, outages) inside the same bench; the errored ones stay as history")
    .option(
      "--confirm",
      "after the run, rerun the cases of suspected regressions (baseline and candidate, more repeats) inside the same bench: each is then confirmed or cleared (deterministic replays of recorded answers are confirmed without a rerun)",
    )
    .option("--server <url>", SERVER_HELP)
    .option("--max-cost <usd>", "spend cap: no trial starts once spent + running trials' estimated cost would pass it; the rest are skipped as budget")
    .option("--rerun-max-cost <usd>", "with --confirm / --rerun-errors: raise the bench's spend cap to USD for the rerun when the cap would stop it")
    .option("--max-latency-increase <pct>", "block a candidate whose p95 latency is more than PCT % over the baseline's")
    .option("--max-cost-increase <pct>", "block a candidate whose cost per case is more than PCT % over the baseline's")
    .action(async (o) => {
      result.code = await benchRunCommand(o, io);
    });

  p.command("compile")
    .description("Compile a benchmark repository (benchmark.config.ts) into a frozen release file")
    .argument("[config]", "benchmark.config.ts or its folder (default: the working folder)")
    .option("--out <path>", "where to write the release (default: release.json next to the config)")
    .option("--json", "print one JSON line")
    .action(async (config: string | undefined, o) => {
      result.code = await compileCommand(config, o, io);
    });

  p.command("run")
    .description("Run a benchmark repository's cases against a model; exit 0 only when every selected case passed")
    .argument("[targets...]", "benchmark.config.ts or its folder, and/or FILE::EVAL[ID] selectors")
    .option("--name <name>", "run only the case with this id, or EVAL[ID] (given id or position) (repeatable)", collect, undefined)
    .option("--tag <tag>", "run only cases with this label (repeatable)", collect, undefined)
    .option("--timeout <seconds>", "default per-case timeout (default 120)")
    .option("--json-output <path>", "write the results (or, with --list, the case list) as JSON")
    .option("--list", "list the selected cases without running them")
    .option("-v, --verbose", "print each case's message, tool calls and response")
    .option("--concurrency <n>", "cases run at once (default 1)")
    .option("--model <name>", "a model configuration saved in the app (BENCHWORK_DB)")
    .option("--provider <provider>", "openai | anthropic | openai-compatible (with --model-id)")
    .option("--model-id <id>", "the provider's model id")
    .option("--base-url <url>", "API base URL (required for openai-compatible)")
    .option("--api-key-env <var>", "environment variable holding the API key")
    .option("--judge-model <name>", "model configuration (from the app) that judges criteria of cases without their own judgeModel (default: the run model)")
    .action(async (targets: string[], o) => {
      result.code = await runCommand(targets, o, io);
    });

  p.command("publish")
    .description("Load a benchmark repository's release into a system's test library (source: code)")
    .argument("[config]", "benchmark.config.ts or its folder (default: the working folder)")
    .requiredOption("--system <id>", "the system whose library receives the cases")
    .option("--prompt <name>", "put every case into this prompt (default: one prompt per eval id)")
    .option("--json", "print the report as JSON")
    .option("--server <url>", SERVER_HELP)
    .action(async (config: string | undefined, o) => {
      result.code = await publishCommand(config, o, io);
    });

  p.command("generate")
    .description("Propose criteria and scenarios for a prompt with a model; stored for review in the app (BENCHWORK_DB)")
    .requiredOption("--system <id>", "the system")
    .requiredOption("--prompt <name>", "the prompt")
    .option("--criteria <n>", "criteria to propose (0-50)", "0")
    .option("--scenarios <n>", "scenarios to propose (0-50)", "0")
    .option("--json", "print { criteria, scenarios, dropped, … } as one JSON object")
    .option("--model <name>", "a model configuration saved in the app (BENCHWORK_DB)")
    .option("--provider <provider>", "openai | anthropic | openai-compatible (with --model-id)")
    .option("--model-id <id>", "the provider's model id")
    .option("--base-url <url>", "API base URL (required for openai-compatible)")
    .option("--api-key-env <var>", "environment variable holding the API key")
    .action(async (o) => {
      result.code = await generateCommand(o, io);
    });

  const user = p.command("user").description("Accounts of a team server (BENCHWORK_DATABASE_URL, else BENCHWORK_DB)");
  user
    .command("add")
    .description("Add a user; prints a one-time password unless --password-stdin")
    .argument("<email>", "the user's e-mail address (their sign-in name)")
    .option("--admin", "make the user an admin (same as --role admin)")
    .option("--role <role>", "admin | editor | viewer (default viewer)")
    .option("--password-stdin", "read the password from standard input instead of generating one")
    .action(async (email: string, o) => {
      result.code = await userAddCommand(email, o, io);
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
    // The store's own words are the whole story (which store, PostgreSQL's reason): no stack under them.
    if (e instanceof StoreUnreachableError) {
      io.err(`benchwork: ${e.message}`);
      return 1;
    }
    io.err(`benchwork: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}
