/**
 * The import core's parser with bounded time and memory (issue 3): every parse runs in a
 * `worker_threads` Worker with `resourceLimits` and a wall-clock timeout, and is terminated when
 * either is exceeded. At most {@link MAX_PARALLEL_PARSES} parses run at once; more wait their turn.
 *
 * The worker is the plain `server/import-worker.mjs`, resolved from the project root
  if (!existsSync(file))
    throw new Error(`The import worker ${file} is missing: start Benchwork from its project folder, or set BENCHWORK_ROOT to that folder.`);
  // Outside the parse's time and memory bounds: building it (only when stale) is not the file's doing.
  const entry = await workerBundle(root, "import-parser");
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { ImportError, type ImportErrorCode } from "@/lib/import/errors";
import type { InspectOptions, InspectResult } from "@/lib/import/inspect";
import type { ImportTable, ParseOptions } from "@/lib/import/types";
import { DatasetError } from "@/lib/datasets/errors";
import { workerBundle } from "../scripts/worker-bundles.mjs";

/** Wall-clock limit of one parse, in ms. */
export const PARSE_TIMEOUT_MS = 20_000;
/** Heap limit of the parser's worker (V8 old generation), in MB. */
export const PARSE_MEMORY_MB = 512;
/** Parses that may run at the same time. */
export const MAX_PARALLEL_PARSES = 2;

/** Bounds of one parse (tests use small ones). */
export interface ParseBounds {
  timeoutMs?: number;
  maxOldGenerationSizeMb?: number;
}

/** The project root the worker is loaded from: `BENCHWORK_ROOT` (set by cli/bin.mjs), else the working directory. */
function projectRoot(): string {
  return process.env.BENCHWORK_ROOT || process.cwd();
}

/** Absolute path of the worker script. */
export function workerPath(root: string = projectRoot()): string {
  return path.join(/*turbopackIgnore: true*/ root, "server", "import-worker.mjs");
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PARALLEL_PARSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

type WorkerReply =
  | { ok: true; value: unknown }
  | { ok: false; importError: { code: ImportErrorCode; message: string; fileName: string; limit?: number; actual?: number } }
  | { ok: false; error: string };

async function runWorker(op: "parse" | "inspect", bytes: Uint8Array, fileName: string, options: object, bounds: ParseBounds): Promise<unknown> {
  const root = projectRoot();
  const file = workerPath(root);
  if (!existsSync(file))
    throw new Error(`The import worker ${file} is missing: start Benchwork from its project folder, or set BENCHWORK_ROOT to that folder.`);
  // Outside the parse's time and memory bounds: building it (only when stale) is not the file's doing.
  const entry = await workerBundle(root, "import-parser");
  const timeoutMs = bounds.timeoutMs ?? PARSE_TIMEOUT_MS;
  const memoryMb = bounds.maxOldGenerationSizeMb ?? PARSE_MEMORY_MB;
  const release = await slot();
  try {
    return await new Promise<unknown>((resolve, reject) => {
      const worker = new Worker(file, {
        workerData: { op, bytes, fileName, options, entry },
        resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(memoryMb / 8))) },
      });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const timer = setTimeout(() => {
        finish(() =>
          reject(
            new DatasetError(
              "parse_timeout",
              `${fileName} took too long to read (more than ${Math.round(timeoutMs / 1000)} s), so reading was stopped. Nothing was stored. Split the file into smaller ones or simplify it, then upload it again.`,
            ),
          ),
        );
      }, timeoutMs);
      worker.on("message", (m: WorkerReply) =>
        finish(() => {
          if (m.ok) resolve(m.value);
          else if ("importError" in m) {
            const e = m.importError;
            reject(new ImportError(e.code, e.fileName, e.message, { limit: e.limit, actual: e.actual }));
          } else {
            console.error(`import worker: ${m.error}`);
            reject(
              new DatasetError(
                "parse_failed",
                `${fileName} could not be read because of an error on the server (it is in the server log). Nothing was stored.`,
              ),
            );
          }
        }),
      );
      worker.on("error", (e: Error & { code?: string }) =>
        finish(() => {
          if (e.code === "ERR_WORKER_OUT_OF_MEMORY") {
            reject(
              new DatasetError(
                "parse_memory",
                `${fileName} needed more memory than allowed (${memoryMb} MB) while being read, so reading was stopped. Nothing was stored. Split the file into smaller ones, then upload it again.`,
              ),
            );
          } else {
            console.error("import worker:", e);
            reject(
              new DatasetError(
                "parse_failed",
                `${fileName} could not be read because of an error on the server (it is in the server log). Nothing was stored.`,
              ),
            );
          }
        }),
      );
      worker.on("exit", (code) =>
        finish(() =>
          reject(new DatasetError("parse_failed", `${fileName} could not be read: the reader stopped unexpectedly (exit ${code}). Nothing was stored.`)),
        ),
      );
    });
  } finally {
    release();
  }
}

/**
 * `parseFile` in a bounded worker.
 * @param bytes the file
 * @param fileName its name (decides the format)
 * @param options parse options (limits, sheet, …)
 * @param bounds time and memory bounds (defaults 20 s, 512 MB)
 * @throws ImportError when the import core refuses the file; DatasetError `parse_timeout`,
 *   `parse_memory` or `parse_failed` when the worker was stopped or failed
 */
export async function parseBounded(bytes: Uint8Array, fileName: string, options: ParseOptions = {}, bounds: ParseBounds = {}): Promise<ImportTable> {
  return (await runWorker("parse", bytes, fileName, options, bounds)) as ImportTable;
}

/**
 * `inspect` (parse + suggested mapping + problems) in a bounded worker.
 * @param bytes the file
 * @param fileName its name
 * @param options parse options, template variables, redaction preview
 * @param bounds time and memory bounds
 * @throws as {@link parseBounded}
 */
export async function inspectBounded(bytes: Uint8Array, fileName: string, options: InspectOptions = {}, bounds: ParseBounds = {}): Promise<InspectResult> {
  return (await runWorker("inspect", bytes, fileName, options, bounds)) as InspectResult;
}
