/**
 * A zod schema of a frozen release (lib/suite/types.ts `Release`), for releases that arrive from
 * outside the process (the HTTP API's publish). Structure only; the content hash is checked
 * separately (`releaseHash`).
 */
import { z } from "zod";
import { evaluatorSpecSchema } from "@/lib/evaluators/spec";
import { modelConfigSchema } from "@/lib/runtime/model-config";
import type { Release } from "./types";

const text = z.string().max(200_000);
const short = z.string().min(1).max(500);

const releaseCaseSchema = z.object({
  id: short,
  evalId: short,
  index: z.number().int().min(0),
  givenId: z.boolean(),
  title: text.nullable(),
  description: text.nullable(),
  prompt: text,
  systemPrompt: text.nullable(),
  expected: text.nullable(),
  tools: z.array(short).max(100),
  evaluators: z.array(evaluatorSpecSchema).max(50),
  evaluatorFunction: z
    .object({ module: short, exportPath: short, source: text, sha256: z.string().regex(/^[0-9a-f]{64}$/), files: z.array(short).max(200) })
    .nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  labels: z.array(z.string().max(200)).max(100),
  metadata: z.record(z.string(), z.unknown()),
  timeoutSeconds: z.number().positive().nullable(),
  maxSteps: z.number().int().positive().nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  criteria: text.nullable(),
  judgeMode: z.enum(["binary", "numeric"]),
  judgeThreshold: z.number(),
  judgeModel: modelConfigSchema.nullable(),
  expectedToolCalls: z.array(short).max(100).nullable(),
  allowAdditionalToolCalls: z.boolean(),
  hasSetup: z.boolean(),
  hasTeardown: z.boolean(),
  source: z.object({
    module: short,
    file: short,
    row: z.number().int().positive().optional(),
    line: z.number().int().positive().optional(),
    index: z.number().int().min(0),
  }),
});

/** The release file `benchwork compile` writes. */
export const releaseSchema = z.object({
  format: z.literal("benchwork.release"),
  protocolVersion: z.literal(1),
  title: z.string().min(1).max(500),
  version: z.string().min(1).max(100),
  license: z.string().max(200),
  description: text.nullable(),
  tools: z.array(z.object({ name: short, module: short, description: text, inputSchema: z.unknown(), executeSha256: z.string().max(100) })).max(500),
  evals: z.array(z.object({ id: short, title: text.nullable(), module: short, dataFile: short.nullable(), caseCount: z.number().int().min(0) })).max(5_000),
  cases: z.array(releaseCaseSchema).max(50_000),
  contentHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: and 64 hex digits"),
}) satisfies z.ZodType<Release, unknown>;
