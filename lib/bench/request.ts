/**
 * The New bench form as data (validated on the server with zod, DESIGN.md §2). One launch = one
 * bench: `launchKey` (made by the form once) makes a double-clicked Launch a single bench.
 */
import { z } from "zod";
import { CASE_SOURCES } from "../library/case-content";
import { MAX_PER_BATCH } from "../generate/limits";

export const candidateRequestSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("model"),
    modelConfigId: z.coerce.number({ error: "Choose a model configuration." }).int().positive({ error: "Choose a model configuration." }),
    /** Prompt revision id; absent = the prompt's current revision. */
    promptRevisionId: z.coerce.number().int().positive().optional(),
  }),
  z.object({
    kind: z.literal("recorded"),
    recordedName: z.string().trim().min(1, { error: "Choose a recorded-output column." }).max(200),
  }),
]);
export type CandidateRequest = z.infer<typeof candidateRequestSchema>;

export const selectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("tag"), tag: z.string().trim().min(1, { error: "Enter a tag." }).max(100) }),
  z.object({ kind: z.literal("source"), source: z.enum(CASE_SOURCES) }),
  z.object({ kind: z.literal("dataset"), dataset: z.string().trim().min(1, { error: "Choose a dataset." }).max(200) }),
]);

export const baselineSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("candidate"), index: z.coerce.number().int().min(0) }),
  z.object({ kind: z.literal("last-bench") }),
  z.object({ kind: z.literal("none") }),
]);
export type BaselineRequest = z.infer<typeof baselineSchema>;

/** A whole number between `min` and `max` with one message for every way to miss it. */
function wholeNumber(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}.`;
  return z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** A plain decimal number as typed: digits, an optional fraction and exponent. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number from `min` to `max`, or empty / blank / absent for none (null); a string must be a plain decimal. */
function optionalNumber(label: string, min: number, max: number) {
  // A plain sentence for a minimum above 0 (it read "a number from above 0 to …").
  const range = min === 0 ? `from 0 to ${max.toLocaleString("en-US")}` : `greater than 0 and at most ${max.toLocaleString("en-US")}`;
  const message = `${label} must be a number ${range} (or empty for none).`;
  return z.preprocess(
    (v) => {
      if (v === undefined || v === null) return null;
      if (typeof v !== "string") return v;
      // Blank means none; only plain decimals count (Number() reads "  " as 0 and "0x10" as 16).
      const t = v.trim();
      if (t === "") return null;
      return DECIMAL.test(t) ? Number(t) : Number.NaN;
    },
    z.number({ error: message }).min(min, { error: message }).max(max, { error: message }).nullable(),
  );
}

/** Limits of the form (also stated on the page). */
export const BENCH_LIMITS = { candidates: 8, repeats: 10, concurrency: 256, timeoutSeconds: 600, maxSteps: 10, budget: 100_000 } as const;

/** Most criteria / scenarios one bench may generate (the generator's batch limit). */
export const GENERATE_LIMIT = MAX_PER_BATCH;

/**
 * "Generate criteria and scenarios for this bench" (issue 17): the generator model (a saved model
 * configuration) and how many of each; at least one count above 0.
 */
export const benchGenerateSchema = z
  .object({
    modelConfigId: z.coerce
      .number({ error: "Choose a generator model." })
      .int({ error: "Choose a generator model." })
      .positive({ error: "Choose a generator model." }),
    criteria: wholeNumber("Criteria to generate", 0, GENERATE_LIMIT),
    scenarios: wholeNumber("Scenarios to generate", 0, GENERATE_LIMIT),
  })
  .refine((g) => g.criteria + g.scenarios > 0, { path: ["scenarios"], message: "Ask for at least one criterion or scenario to generate." });
export type BenchGenerateRequest = z.infer<typeof benchGenerateSchema>;

/** A bench launch request. Numbers: budget in cases (null = all), timeout in seconds. */
export const benchRequestSchema = z
  .object({
    systemId: z.string().min(1),
    promptId: z.coerce.number({ error: "Choose the target prompt." }).int().positive({ error: "Choose the target prompt." }),
    title: z.string().trim().max(200).optional(),
    candidates: z
      .array(candidateRequestSchema)
      .min(1, { error: "Add at least one candidate." })
      .max(BENCH_LIMITS.candidates, { error: `At most ${BENCH_LIMITS.candidates} candidates.` }),
    baseline: baselineSchema,
    selection: selectionSchema,
    /** Retained regression cases of earlier benches join the selection (absent = true). */
    includeRetained: z.boolean().optional(),
    budget: z.preprocess(
      (v) => (v === "" || v === undefined ? null : v),
      z.coerce
        .number({ error: "The case budget must be a whole number of cases (or empty for no limit)." })
        .int({ error: "The case budget must be a whole number of cases (or empty for no limit)." })
        .min(1, { error: "The case budget must be at least 1 (or empty for no limit)." })
        .max(BENCH_LIMITS.budget, { error: `The case budget is at most ${BENCH_LIMITS.budget.toLocaleString("en-US")} cases.` })
        .nullable(),
    ),
    repeats: wholeNumber("Trials per case", 1, BENCH_LIMITS.repeats),
    concurrency: wholeNumber("Concurrency", 1, BENCH_LIMITS.concurrency),
    timeoutSeconds: wholeNumber("The per-trial timeout (seconds)", 1, BENCH_LIMITS.timeoutSeconds),
    maxSteps: z.coerce.number().int().min(1).max(BENCH_LIMITS.maxSteps).default(5),
    judgeModelConfigId: z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().positive().nullable()),
    launchKey: z.string().min(8).max(100),
    /** Generate criteria and scenarios at launch (absent or null = none). */
    generate: benchGenerateSchema.nullable().optional(),
    /** Spend cap in USD, absent or null = none (issue #16 §4; see lib/bench/budget.ts). */
    spendCapUsd: optionalNumber("The spend cap (USD)", 0.000001, 1_000_000).optional(),
    /** Gate limits in percent over the baseline (p95 latency, cost per case); absent or null = none. */
    maxLatencyIncreasePct: optionalNumber("The p95 latency limit (%)", 0, 10_000).optional(),
    maxCostIncreasePct: optionalNumber("The cost per case limit (%)", 0, 10_000).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.baseline.kind === "candidate" && r.candidates.length > 0 && r.baseline.index >= r.candidates.length) {
      ctx.addIssue({ code: "custom", path: ["baseline"], message: "The baseline must be one of the candidates." });
    }
    const seen = new Set<string>();
    r.candidates.forEach((c, i) => {
      const k = c.kind === "model" ? `m:${c.modelConfigId}:${c.promptRevisionId ?? "current"}` : `r:${c.recordedName}`;
      if (seen.has(k)) ctx.addIssue({ code: "custom", path: ["candidates", i], message: `Candidate ${i + 1} is the same as an earlier one.` });
      seen.add(k);
    });
  });
export type BenchRequest = z.infer<typeof benchRequestSchema>;
