/**
 * Console and file helpers of the CLI. Exit codes follow DESIGN.md §6: 0 success, 1 a failure the
 * command found (failed cases, blocking problems, an unwritable output file), 2 a usage error.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** An error that ends the command with a given exit code and a message for stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A usage error (exit 2). */
export function usage(message: string): CliError {
  return new CliError(message, 2);
}

/**
 * Reads and parses a JSON file.
 * @throws CliError (exit 2) naming the file when it is missing or not JSON (with line and column)
 */
export function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw usage(`${what} ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw usage(`${what} ${file}: not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Writes `value` as pretty JSON, creating folders.
 * @throws CliError (exit 1) when the file cannot be written
 */
export function writeJsonFile(file: string, value: unknown): void {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
  }
}

/**
 * Writes `text` to `file`, creating its folder.
 * @throws CliError (exit 1) naming the file and the reason
 */
export function writeTextFile(file: string, text: string): void {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
  }
}

/** Output streams, injectable so tests capture what a command prints. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  /** True when stdout is a terminal (progress lines redraw in place). */
  tty: boolean;
}

/** The process's own streams. */
export const processIo: Io = {
  out: (l) => process.stdout.write(l + "\n"),
  err: (l) => process.stderr.write(l + "\n"),
  tty: Boolean(process.stdout.isTTY),
};
