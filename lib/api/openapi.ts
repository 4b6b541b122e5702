/**
 * The OpenAPI 3.1 document of the HTTP API for the CLI (served at `/api/v1/openapi.json`, issue 19),
 * generated from the zod schemas the route handlers validate with (`z.toJSONSchema`), so the
 * document cannot drift from what the server accepts.
 */
import { z } from "zod";
import { apiErrorSchema, benchRunBodySchema, cancelBodySchema, datasetImportBodySchema, publishBodySchema } from "./schemas";

const json = (s: z.ZodType, io: "input" | "output") => z.toJSONSchema(s, { io, target: "draft-2020-12", unrepresentable: "any" });

/** What a response holds, where the server's types are not zod schemas: described loosely, by name. */
const object = (description: string, properties: Record<string, unknown> = {}) => ({ type: "object", description, properties });

const progress = object("Trial counts of the bench", {
  id: { type: "integer" },
  status: { type: "string", enum: ["queued", "running", "finished", "cancelled", "failed"] },
  total: { type: "integer" },
  queued: { type: "integer" },
  running: { type: "integer" },
  done: { type: "integer" },
  error: { type: "integer" },
  errorsRerun: { type: "integer", description: "Of `error`, the errored trials a later trial reruns (kept as history, no longer errors of the bench)" },
  skipped: { type: "integer" },
  cancelRequested: { type: "boolean" },
  noWorkerSince: {
    type: ["integer", "null"],
    description:
      "Since when (ms since the epoch) the bench has waited for a worker: set once it waited 15 s with no trial claimed and no live worker at work elsewhere (start one with `npm run worker`, or run the web server without `BENCHWORK_WORKER=off`); else null",
  },
});

function errors(...statuses: number[]) {
  const text: Record<number, string> = {
    400: "Invalid input: `error.fieldErrors` names each field (body path) at fault",
    401: "No valid API token (send `Authorization: Bearer <token>`)",
    403: "The token's user role or scope cannot do this, or a cross-site write",
    404: "No such bench or system",
    409: "Conflict (the bench is still running; a case id is taken)",
    413: "The body is too large",
    415: "The body is not JSON",
    422: "The input is well formed but cannot be used (rows missing their input or expected result, a file the importer refuses)",
    502: "The generator model's answer was unusable; nothing was stored",
  };
  const out: Record<string, unknown> = {};
  for (const s of statuses) out[String(s)] = { description: text[s], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  return out;
}

const body = (ref: string) => ({ required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } } });
const ok = (description: string, schema: unknown, status = "200") => ({ [status]: { description, content: { "application/json": { schema } } } });
const benchId = { name: "benchId", in: "path", required: true, schema: { type: "integer", minimum: 1 } };
const write = ["editor role; API tokens need the `run` scope"];
const read = ["viewer role; API tokens need the `read` scope"];

/** The document. `serverUrl` is where this server is reached (its own origin). */
export function openApiDocument(serverUrl?: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Benchwork API for the CLI",
      version: "1",
      description:
        "What `benchwork bench run`, `publish` and `dataset import` call with `--server URL` and `BENCHWORK_TOKEN`. Every error is `{ error: { code, message, fieldErrors?, problems? } }`.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A personal API token (scopes read / run)" } },
      schemas: {
        BenchRunRequest: json(benchRunBodySchema, "input"),
        CancelRequest: json(cancelBodySchema, "input"),
        PublishRequest: json(publishBodySchema, "input"),
        DatasetImportRequest: json(datasetImportBodySchema, "input"),
        Error: json(apiErrorSchema, "output"),
      },
    },
    paths: {
      "/api/v1/benches": {
        post: {
          operationId: "launchBench",
          summary: "Launch a bench (bench run's options); the server's worker runs it",
          description: write.join(""),
          requestBody: body("BenchRunRequest"),
          responses: {
            ...ok("Launched (or the bench this launchKey already launched)", object("benchId, created, plan summary, generated, includeRetained"), "201"),
            ...errors(400, 401, 403, 413, 415, 502),
          },
        },
      },
      "/api/v1/benches/{benchId}/progress": {
        get: {
          operationId: "benchProgress",
          summary: "Progress of a bench",
          description: read.join(""),
          parameters: [benchId],
          responses: { ...ok("Progress", progress), ...errors(401, 403, 404) },
        },
      },
      "/api/v1/benches/{benchId}/cancel": {
        post: {
          operationId: "cancelBench",
          summary: "Cancel a bench: running trials abort, unrun ones are skipped",
          description: write.join(""),
          parameters: [benchId],
          requestBody: body("CancelRequest"),
          responses: { ...ok("Cancel requested", object("{ cancelRequested: true }")), ...errors(401, 403, 404, 409, 415) },
        },
      },
      "/api/v1/benches/{benchId}/results": {
        get: {
          operationId: "benchResults",
          summary: "Results of an ended bench: the JSON bench run writes (result), its printed lines, the Markdown and the exit gate",
          description: read.join(""),
          parameters: [benchId],
          responses: { ...ok("Results", object("result, lines, markdown, gate")), ...errors(401, 403, 404, 409) },
        },
      },
      "/api/v1/publish": {
        post: {
          operationId: "publishRelease",
          summary: "Publish a compiled release into a system's library (cases with source code)",
          description: write.join(""),
          requestBody: body("PublishRequest"),
          responses: {
            ...ok("What was created, revised, unchanged and what disappeared", object("PublishReport")),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      "/api/v1/datasets/import": {
        post: {
          operationId: "importDataset",
          summary: "Save a data file as a new dataset version (and optionally use it for a prompt)",
          description: write.join(""),
          requestBody: body("DatasetImportRequest"),
          responses: { ...ok("The saved version (and what use added)", object("{ saved, used? }"), "201"), ...errors(400, 401, 403, 404, 409, 413, 415, 422) },
        },
      },
    },
  };
}
