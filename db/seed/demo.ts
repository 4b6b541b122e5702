/**
 * The demo workspace: a plain importer over the files in `db/seed/data/` (public dataset slices,
 * see licenses/DATA_NOTICES.md) driven by `workspace.json`. Runs once: never twice, never over
 * user data.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { workspaceMeta, systems } from "../schema";
import { first } from "../rows";
import { addCases, type NewCase } from "../queries/cases";
import { addCriterion } from "../queries/criteria";
import { createPrompt, createSystem } from "../queries/systems";
import { emptyCaseContent, type CaseContent, type ToolDefinition, type ToolFixtures } from "@/lib/library/case-content";
import { demoEvaluators } from "./evaluators";

/** Folder of the demo files, relative to the project root. */
export const DEMO_DATA_DIR = path.join(process.env.BENCHWORK_ROOT || process.cwd(), "db", "seed", "data");

interface CaseFileSpec {
  file: string;
  format: "jsonl" | "csv" | "bfcl" | "bfcl-recorded";
  caseId?: string;
  caseIdPrefix?: string;
  input?: string;
  expected?: string;
  notes?: string;
  tags?: string;
  recordedOutputs?: Record<string, string>;
  extra?: string[];
  variables?: Record<string, string>;
  evaluators?: string;
}

interface WorkspaceSpec {
  systems: {
    id: string;
    name: string;
    description: string;
    prompts: {
      name: string;
      description: string;
      systemPrompt: string;
      modelSettings: Record<string, unknown>;
      tools: ToolDefinition[];
      toolFixtures?: string;
      cases: CaseFileSpec[];
    }[];
    criteria: { prompt: string; origin: "custom" | "generated"; priority: "primary" | "secondary"; rule: string; passes: string; fails: string }[];
  }[];
}

type Row = Record<string, unknown>;

function readRows(dir: string, spec: CaseFileSpec): Row[] {
  const text = readFileSync(path.join(dir, spec.file), "utf8");
  if (spec.format === "csv") {
    const parsed = Papa.parse<Row>(text, { header: true, skipEmptyLines: true });
    if (parsed.errors.length) throw new Error(`${spec.file}: line ${parsed.errors[0].row}: ${parsed.errors[0].message}`);
    return parsed.data;
  }
  return text
    .split("\n")
    .map((line, i) => ({ line: line.trim(), i }))
    .filter((l) => l.line)
    .map(({ line, i }) => {
      try {
        return JSON.parse(line) as Row;
      } catch (e) {
        throw new Error(`${spec.file}: line ${i + 1}: ${(e as Error).message}`);
      }
    });
}

const str = (v: unknown): string => (v == null ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** BFCL ground truth `[{fn: {arg: [accepted…]}}]` as readable text: `fn(a: 1, b: "x" | omitted)`. */
function describeGroundTruth(gt: Record<string, Record<string, unknown[]>>[]): string {
  return gt
    .map((call) =>
      Object.entries(call)
        .map(([fn, args]) => {
          const parts = Object.entries(args).map(([name, accepted]) => {
            const shown = accepted.map((v) => (v === "" ? "omitted" : JSON.stringify(v)));
            return `${name}: ${shown.join(" | ")}`;
          });
          return `${fn}(${parts.join(", ")})`;
        })
        .join(""),
    )
    .join("\n");
}

/** BFCL schemas use `dict` and Python type names; tools APIs want JSON Schema. */
function toJsonSchema(schema: unknown): Record<string, unknown> {
  if (Array.isArray(schema)) return schema.map(toJsonSchema) as unknown as Record<string, unknown>;
  if (!schema || typeof schema !== "object") return schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Row)) {
    if (k === "type" && typeof v === "string") {
      out.type = { dict: "object", float: "number", tuple: "array", any: undefined }[v] ?? v;
      if (out.type === undefined) delete out.type;
    } else out[k] = typeof v === "object" ? toJsonSchema(v) : v;
  }
  return out;
}

/** BFCL function names may hold dots; OpenAI-style tool names cannot, so BFCL maps `.` to `_`. */
export function bfclToolName(name: string): string {
  return name.replace(/\./g, "_");
}

function bfclContent(row: Row, recorded: boolean): CaseContent {
  const functions = (recorded ? row.function : row.functions) as { name: string; description: string; parameters: unknown }[];
  const groundTruth = row.ground_truth as Record<string, Record<string, unknown[]>>[];
  const c: CaseContent = {
    ...emptyCaseContent(),
    input: str(recorded ? row.question : row.user_message),
    expected: describeGroundTruth(groundTruth),
    tags: [str(row.category || "simple_python")],
    data: { category: row.category ?? "simple_python", groundTruth, functions },
    toolDefinitions: functions.map((f) => ({ name: bfclToolName(f.name), description: f.description, inputSchema: toJsonSchema(f.parameters) })),
  };
  c.tools = c.toolDefinitions!.map((t) => t.name);
  if (recorded) {
    const calls = (col: string) => (row[col] as { name: string; arguments: unknown }[]).map((k) => ({ toolName: bfclToolName(k.name), input: k.arguments }));
    c.recordedToolCalls = { "airev-agent-0.8b": calls("airev_agent_0_8b_calls"), "glyphh-ada-1.1": calls("glyphh_ada_1_1_calls") };
    c.recordedOutputs = { "airev-agent-0.8b": str(row.airev_agent_0_8b_raw), "glyphh-ada-1.1": str(row.glyphh_ada_1_1_raw) };
  }
  return c;
}

function mappedContent(row: Row, spec: CaseFileSpec): CaseContent {
  const c: CaseContent = { ...emptyCaseContent(), input: str(row[spec.input!]), expected: str(row[spec.expected!]) };
  if (spec.notes) c.notes = str(row[spec.notes]);
  if (spec.tags)
    c.tags = Array.isArray(row[spec.tags])
      ? (row[spec.tags] as string[])
      : str(row[spec.tags])
          .split(/[,;]/)
          .map((t) => t.trim())
          .filter(Boolean);
  if (spec.recordedOutputs) c.recordedOutputs = Object.fromEntries(Object.entries(spec.recordedOutputs).map(([name, col]) => [name, str(row[col])]));
  if (spec.extra) c.extra = Object.fromEntries(spec.extra.map((col) => [col, str(row[col])]));
  if (spec.variables) c.variables = Object.entries(spec.variables).map(([name, value]) => ({ name, value }));
  if (Array.isArray(row.tools)) c.tools = row.tools as string[];
  return c;
}

/** Cases of one file of the workspace spec, in file order. BFCL files merge by id (recorded calls join the slice's case). */
function casesOf(dir: string, spec: CaseFileSpec, systemId: string, promptId: number, byKey: Map<string, NewCase>): NewCase[] {
  const out: NewCase[] = [];
  readRows(dir, spec).forEach((row, i) => {
    const recorded = spec.format === "bfcl-recorded";
    const content = spec.format === "bfcl" || recorded ? bfclContent(row, recorded) : mappedContent(row, spec);
    const caseKey = spec.caseId ? str(row[spec.caseId]) : spec.caseIdPrefix ? `${spec.caseIdPrefix}${String(i + 1).padStart(3, "0")}` : str(row.id);
    content.evaluators = demoEvaluators(spec.evaluators ?? spec.format, content);
    const known = byKey.get(caseKey);
    if (known && recorded) {
      known.content.recordedOutputs = { ...known.content.recordedOutputs, ...content.recordedOutputs };
      known.content.recordedToolCalls = { ...known.content.recordedToolCalls, ...content.recordedToolCalls };
      return;
    }
    const c: NewCase = {
      systemId,
      promptId,
      caseKey,
      source: "dataset",
      origin: { kind: "dataset", datasetName: spec.file, row: i + 1 },
      content,
    };
    byKey.set(caseKey, c);
    out.push(c);
  });
  return out;
}

/** True when the workspace already holds data (a seeded demo or anything a user made). */
export async function workspaceHasData(db: Db): Promise<boolean> {
  const seeded = await first(db.select().from(workspaceMeta).where(eq(workspaceMeta.key, "demo_seeded_at")));
  const anySystem = await first(db.select({ id: systems.id }).from(systems).limit(1));
  return Boolean(seeded || anySystem);
}

/**
 * Seeds the demo workspace once, in one transaction per system plus a final marker.
 * @returns what was created, or `skipped` when the workspace already has data
 * @throws Error naming the file and line when a data file is malformed
 */
export async function seedDemoWorkspace(db: Db, dir: string = DEMO_DATA_DIR): Promise<{ skipped: boolean; systems: number; cases: number; criteria: number }> {
  if (await workspaceHasData(db)) return { skipped: true, systems: 0, cases: 0, criteria: 0 };
  const spec = JSON.parse(readFileSync(path.join(dir, "workspace.json"), "utf8")) as WorkspaceSpec;
  let caseCount = 0;
  let criteriaCount = 0;
  for (const s of spec.systems) {
    await createSystem(db, { id: s.id, name: s.name, description: s.description });
    const promptIds = new Map<string, number>();
    for (const p of s.prompts) {
      const fixtures = p.toolFixtures ? (JSON.parse(readFileSync(path.join(dir, p.toolFixtures), "utf8")) as Record<string, ToolFixtures>) : {};
      const tools = p.tools.map((t) => ({ ...t, fixtures: fixtures[t.name] }));
      const promptId = await createPrompt(db, {
        systemId: s.id,
        name: p.name,
        description: p.description,
        systemPrompt: p.systemPrompt,
        modelSettings: p.modelSettings,
        tools,
      });
      promptIds.set(p.name, promptId);
      const byKey = new Map<string, NewCase>();
      const all = p.cases.flatMap((f) => casesOf(dir, f, s.id, promptId, byKey));
      await addCases(db, all);
      caseCount += all.length;
    }
    for (const c of s.criteria) {
      const promptId = promptIds.get(c.prompt);
      if (!promptId) throw new Error(`workspace.json: criterion "${c.rule}" names unknown prompt "${c.prompt}"`);
      await addCriterion(db, { systemId: s.id, promptId, origin: c.origin, fields: { rule: c.rule, passes: c.passes, fails: c.fails, priority: c.priority } });
      criteriaCount++;
    }
  }
  await db.insert(workspaceMeta).values({ key: "demo_seeded_at", value: new Date().toISOString() });
  return { skipped: false, systems: spec.systems.length, cases: caseCount, criteria: criteriaCount };
}
