/**
 * Generate proposals: `POST /api/systems/[systemId]/generate` with JSON
 * `{ promptId, modelConfigId, criteria, scenarios }` (issue 17). A route handler rather than a server
 * action so the browser can cancel: closing the request aborts `request.signal`, which stops the
 * model call, and nothing is stored. Answers `{ ok: true, data: { runId, criteria, scenarios,
 * dropped } }` or `{ ok: false, error: { code, message, fieldErrors? } }` (400 bad input or refused,
 * 502 the model's answer was unusable or its call failed, 499 cancelled).
 */
import { z } from "zod";
import { getDb } from "@/db/client";
import { failure } from "@/lib/shell/result";
import { fieldErrorsOf } from "@/lib/library/forms";
import { MAX_PER_BATCH } from "@/lib/generate/generate";
import { nodeFetch } from "@/server/http-fetch";
import { readBodyWithLimit } from "@/server/read-body";
import { GenerationFailed, generateWithModelConfig } from "@/server/generate/with-config";
import { guardedRoute } from "@/server/auth/guard";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const count = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int({ error: `${what} must be a whole number.` })
    .min(0, { error: `${what} must be 0 or more.` })
    .max(MAX_PER_BATCH, { error: `${what} must be at most ${MAX_PER_BATCH}.` });

const bodySchema = z
  .object({
    promptId: z.coerce.number().int().positive({ error: "Choose the prompt." }),
    modelConfigId: z.coerce.number({ error: "Choose a generator model." }).int().positive({ error: "Choose a generator model." }),
    criteria: count("Criteria"),
    scenarios: count("Scenarios"),
  })
  .refine((b) => b.criteria + b.scenarios > 0, { message: "Ask for at least one criterion or scenario.", path: ["criteria"] });

const json = (status: number, body: unknown) => Response.json(body, { status });

/** Runs one batch of generation; see the module doc. */
export const POST = guardedRoute("editor", async (request: Request, { params }: { params: Promise<{ systemId: string }> }) => {
  const { systemId } = await params;
  let body: unknown;
  try {
    const bytes = await readBodyWithLimit(request.body, 4_096, AbortSignal.any([request.signal, AbortSignal.timeout(10_000)]));
    if (!bytes) throw new Error("too large");
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return json(400, { ok: false, error: { code: "validation", message: "The request body must be a small JSON object." } });
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return json(400, { ok: false, error: { code: "validation", ...fieldErrorsOf(parsed.error) } });
  try {
    const { run, proposals } = await generateWithModelConfig(
      getDb(),
      { systemId, ...parsed.data },
      { env: process.env, fetch: nodeFetch, abortSignal: request.signal },
    );
    return json(200, {
      ok: true,
      data: {
        runId: run.id,
        criteria: proposals.filter((p) => p.kind === "criterion").length,
        scenarios: proposals.filter((p) => p.kind === "scenario").length,
        dropped: run.dropped.length,
      },
    });
  } catch (e) {
    if (e instanceof GenerationFailed) return json(e.code === "cancelled" ? 499 : 502, { ok: false, error: { code: e.code, message: e.message } });
    return json(400, failure(e));
  }
});
