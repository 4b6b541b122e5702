/**
 * Reading a judge's answer. Models that support structured output return the JSON object directly;
 * others (many local and OpenAI-compatible servers) answer in text, so the object is extracted
 * tolerantly: `<think>` blocks are skipped, a ```json fence is preferred, otherwise the first
 * balanced `{...}` that parses is used; trailing commas and `//` line comments are tolerated.
 */
import type { JudgeMode } from "./prompt";

/** Attempts at candidate `{` positions before giving up. */
const MAX_CANDIDATES = 25;

/** Index just past the `}` balancing the `{` at `start`, respecting strings; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Removes `//` line comments and trailing commas outside strings. */
function repair(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === "\\") out += json[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    if (c === "/" && json[i + 1] === "/") {
      while (i < json.length && json[i] !== "\n") i++;
      out += "\n";
      continue;
    }
    if (c === ",") {
      let j = i + 1;
      while (j < json.length && /\s/.test(json[j])) j++;
      if (json[j] === "}" || json[j] === "]") continue;
    }
    out += c;
  }
  return out;
}

function tryParseObject(candidate: string): Record<string, unknown> | undefined {
  for (const text of [candidate, repair(candidate)]) {
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* try the repaired text */
    }
  }
  return undefined;
}

/**
 * Extracts the first JSON object from free text (see module doc).
 * @returns the object, or `undefined` when none can be read
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  const body = text.replace(/<think>[\s\S]*?<\/think>/gi, " ");
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g;
  for (let m = fence.exec(body); m; m = fence.exec(body)) {
    const inner = m[1];
    const start = inner.indexOf("{");
    if (start < 0) continue;
    const end = balancedEnd(inner, start);
    const found = tryParseObject(end > 0 ? inner.slice(start, end) : inner.slice(start));
    if (found) return found;
  }
  let from = 0;
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    const start = body.indexOf("{", from);
    if (start < 0) return undefined;
    const end = balancedEnd(body, start);
    if (end > 0) {
      const found = tryParseObject(body.slice(start, end));
      if (found) return found;
    }
    from = start + 1;
  }
  return undefined;
}

/** A judge answer, interpreted. */
export type JudgeAnswer =
  | { status: "scored"; passed: boolean; reason: string; /** 1–10 in numeric mode */ rawScore?: number }
  | { status: "unobservable"; reason: string }
  | { status: "malformed"; problem: string };

const PASS_WORDS = new Set(["pass", "passed", "passes", "yes", "true", "ok", "success", "satisfied", "met"]);
const FAIL_WORDS = new Set(["fail", "failed", "fails", "no", "false", "failure", "not satisfied", "not met", "unsatisfied"]);
const UNOBSERVABLE_WORDS = new Set([
  "cannot_observe",
  "cannot observe",
  "can't observe",
  "cannot-observe",
  "unobservable",
  "not_observable",
  "not observable",
  "not_applicable",
  "not applicable",
  "n/a",
  "na",
  "unscored",
  "unknown",
  "cannot_judge",
  "cannot judge",
]);

/** Case-insensitive key lookup over a few synonyms. */
function pick(obj: Record<string, unknown>, names: readonly string[]): unknown {
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k] as const));
  for (const n of names) {
    const k = lower.get(n);
    if (k !== undefined) return obj[k];
  }
  return undefined;
}

function readScore(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string") {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:\/\s*10)?\s*$/.exec(v);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * Interprets a judge's JSON answer.
 * @param value the parsed object (from structured output or {@link extractJsonObject})
 * @param mode `binary` expects a verdict; `numeric` expects a 1–10 score
 * @param threshold numeric pass mark (score ≥ threshold passes)
 */
export function interpretJudgeAnswer(value: unknown, mode: JudgeMode, threshold: number): JudgeAnswer {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { status: "malformed", problem: "the answer is not a JSON object" };
  const obj = value as Record<string, unknown>;
  const rawReason = pick(obj, ["reason", "reasoning", "explanation", "rationale", "justification"]);
  const reason = typeof rawReason === "string" ? rawReason.trim() : "";
  const verdictRaw = pick(obj, ["verdict", "result", "decision", "judgement", "judgment", "outcome"]);
  const verdict = typeof verdictRaw === "string" ? verdictRaw.trim().toLowerCase() : typeof verdictRaw === "boolean" ? String(verdictRaw) : undefined;
  const observable = pick(obj, ["observable", "applicable"]);
  if (observable === false || observable === "false" || (verdict !== undefined && UNOBSERVABLE_WORDS.has(verdict))) return { status: "unobservable", reason };

  if (mode === "numeric") {
    const raw = pick(obj, ["score", "rating", "grade"]);
    const score = readScore(raw);
    if (score === undefined)
      return { status: "malformed", problem: raw === undefined ? "the answer has no score" : `the score ${JSON.stringify(raw)} is not a number` };
    if (score < 1 || score > 10) return { status: "malformed", problem: `the score ${score} is outside 1–10` };
    return { status: "scored", passed: score >= threshold, reason, rawScore: score };
  }

  let passedFlag: boolean | undefined;
  if (verdict !== undefined) {
    if (PASS_WORDS.has(verdict)) passedFlag = true;
    else if (FAIL_WORDS.has(verdict)) passedFlag = false;
    else return { status: "malformed", problem: `the verdict ${JSON.stringify(verdictRaw)} is not pass, fail or cannot_observe` };
  } else {
    const p = pick(obj, ["passed", "pass"]);
    if (typeof p === "boolean") passedFlag = p;
  }
  if (passedFlag === undefined) return { status: "malformed", problem: "the answer has no verdict" };
  return { status: "scored", passed: passedFlag, reason };
}
