/**
 * `json`: the output must be valid JSON (RFC 8259, as `JSON.parse` reads it, surrounding whitespace
 * allowed) and, when `schema` is given, must match that JSON Schema. Schemas are compiled with ajv
 * (draft-07 by default; draft 2020-12 when `$schema` says so) and cached by content. `format`
 * keywords are not checked (no format plug-in is installed).
 */
import { Ajv, type ValidateFunction, type ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020";
import type { JsonSpec } from "../spec";
import { SPEC_DEFAULTS } from "../spec";
import { configError, failed, passed } from "../result";
import { shortReadable } from "../text/diff";
import { outputOf, type FieldProblem, type StaticRunner } from "./common";

const KIND = "json";
const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;
let ajv07: Ajv | undefined;
let ajv2020: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction | { error: string }>();
/** Compiled schemas kept in memory (oldest dropped first beyond this). */
const MAX_CACHED_SCHEMAS = 500;

function ajvFor(schema: JsonSpec["schema"]): Ajv | Ajv2020 {
  const declared = typeof schema === "object" && schema !== null ? String((schema as Record<string, unknown>).$schema ?? "") : "";
  if (/2019-09|2020-12/.test(declared)) return (ajv2020 ??= new Ajv2020(AJV_OPTIONS));
  return (ajv07 ??= new Ajv(AJV_OPTIONS));
}

/** Compiles (or fetches from cache) a JSON Schema; returns the validator or the compile error. */
export function compileJsonSchema(schema: NonNullable<JsonSpec["schema"]>): ValidateFunction | { error: string } {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) return hit;
  let result: ValidateFunction | { error: string };
  try {
    result = ajvFor(schema).compile(schema as object | boolean as never);
  } catch (e) {
    result = { error: (e as Error).message };
  }
  if (compiled.size >= MAX_CACHED_SCHEMAS) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, result);
  return result;
}

/** Configuration problems of a `json` spec: a schema ajv cannot compile. */
export function checkJson(spec: JsonSpec): FieldProblem[] {
  if (spec.schema === undefined) return [];
  const v = compileJsonSchema(spec.schema);
  return "error" in v ? [{ field: "schema", message: `schema is not a valid JSON Schema: ${v.error}` }] : [];
}

const FENCE = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/** One-line description of ajv errors: "at /orderId: must be string; at (root): must have required property 'eligible'". */
export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined, max = 5): string {
  if (!errors || errors.length === 0) return "does not match the schema";
  const parts = errors.slice(0, max).map((e) => {
    const where = e.instancePath === "" ? "(root)" : e.instancePath;
    const extra =
      e.keyword === "additionalProperties" && e.params && "additionalProperty" in e.params
        ? ` ("${String((e.params as { additionalProperty: unknown }).additionalProperty)}")`
        : e.keyword === "enum" && e.params && "allowedValues" in e.params
          ? `: ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}`
          : "";
    return `at ${where}: ${e.message ?? e.keyword}${extra}`;
  });
  return parts.join("; ") + (errors.length > max ? `; and ${errors.length - max} more` : "");
}

/** Compiles a `json` spec. Never throws; an invalid schema becomes an `error` result. */
export function compileJson(spec: JsonSpec): StaticRunner {
  const allowFence = spec.allowCodeFence ?? SPEC_DEFAULTS.allowCodeFence;
  const validator = spec.schema === undefined ? undefined : compileJsonSchema(spec.schema);
  return (trial) => {
    if (validator && "error" in validator) return configError(KIND, `schema is not a valid JSON Schema: ${validator.error}`);
    let text = outputOf(trial);
    const fenced = FENCE.exec(text.trim());
    if (fenced && allowFence) text = fenced[1];
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const hint = fenced && !allowFence ? "\nThe output is wrapped in a ``` code fence; set allowCodeFence: true to accept that." : "";
      return failed(
        KIND,
        `The output is not valid JSON: ${(e as Error).message}.\n  output: ${text.length === 0 ? "⟨empty⟩" : `"${shortReadable(text, 200)}"`}${hint}`,
      );
    }
    if (!validator) return passed(KIND, "The output is valid JSON.");
    if (validator(value)) return passed(KIND, "The output is valid JSON and matches the schema.");
    return failed(KIND, `The output is valid JSON but does not match the schema: ${formatSchemaErrors(validator.errors)}.`, {
      schemaErrors: (validator.errors ?? []).slice(0, 20).map((e) => ({ path: e.instancePath, message: e.message ?? e.keyword })),
    });
  };
}
