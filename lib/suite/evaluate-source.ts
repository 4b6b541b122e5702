/**
 * Finds an `evaluate` function in an eval module's JavaScript and rewrites the module so that its
 * default export is that function alone (issue: "hash what runs"). Bundled afterwards, the module
 * then carries only what `evaluate` uses — its helpers, constants and local imports — and not the
 * rest of the eval (cases, `setup`/`teardown`, the tools module they seed), which may import
 * packages that cannot run in the evaluator sandbox.
 *
 * Recognised shapes (after TypeScript is stripped):
 * - `export default { …, evaluate … }` and `export default { cases: [ …, { …, evaluate … } ] }`;
 * - `const ev = { … }; export default ev;` (a top-level `const`).
 * `evaluate` may be a method, an arrow or function expression, a shorthand property or a name.
 * Other shapes (a call such as `defineEval({ … })`, spreads after `evaluate`, spreads or holes in
 * `cases` before the case) are not rewritten: the caller bundles the whole module instead.
 *
 * Pure: text in, text out (acorn parses; nothing is evaluated).
 */
import { parse, type Node } from "acorn";

/** One step of an export path: a property name, and an element index when it is `name[N]`. */
interface PathStep {
  key: string;
  index?: number;
}

/**
 * Reads an export path as compile writes it: `evaluate` or `cases[N].evaluate`.
 * @returns the steps, or null when the path has another form
 */
export function parseExportPath(exportPath: string): PathStep[] | null {
  const steps: PathStep[] = [];
  for (const part of exportPath.split(".")) {
    const m = /^([A-Za-z_$][\w$]*)(?:\[(\d+)\])?$/.exec(part);
    if (!m) return null;
    steps.push(m[2] === undefined ? { key: m[1] } : { key: m[1], index: Number(m[2]) });
  }
  return steps.length > 0 ? steps : null;
}

/** A JavaScript expression reading the export path from `root`, e.g. `root?.cases?.[1]?.evaluate`. */
export function exportPathExpression(root: string, exportPath: string): string | null {
  const steps = parseExportPath(exportPath);
  if (!steps) return null;
  return steps.map((s) => `?.${s.key}${s.index === undefined ? "" : `?.[${s.index}]`}`).reduce((acc, s) => acc + s, root);
}

type AnyNode = Node & Record<string, unknown>;

function keyName(prop: AnyNode): string | null {
  if (prop.type !== "Property" || prop.computed) return null;
  const key = prop.key as AnyNode;
  if (key.type === "Identifier") return key.name as string;
  if (key.type === "Literal" && typeof key.value === "string") return key.value;
  return null;
}

function exportedName(specifier: AnyNode): string | null {
  const e = specifier.exported as AnyNode | null;
  if (!e) return null;
  return e.type === "Identifier" ? (e.name as string) : typeof e.value === "string" ? e.value : null;
}

/**
 * The last property `key` of an object literal, when nothing after it (a spread) could replace it.
 */
function propertyOf(obj: AnyNode, key: string): { prop: AnyNode } | { reason: string } {
  const props = obj.properties as AnyNode[];
  let found = -1;
  for (let i = 0; i < props.length; i++) if (keyName(props[i]) === key) found = i;
  if (found < 0) return { reason: `no property "${key}" written in the object literal` };
  if (props.slice(found + 1).some((p) => p.type === "SpreadElement")) return { reason: `a spread after "${key}" may replace it` };
  const prop = props[found];
  if (prop.kind !== "init" && prop.kind !== "get") return { reason: `"${key}" is a setter` };
  return { prop };
}

/** Follows `steps` from an object literal to the property node holding the function. */
function locate(root: AnyNode, steps: PathStep[]): { prop: AnyNode } | { reason: string } {
  let obj = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const found = propertyOf(obj, step.key);
    if ("reason" in found) return found;
    if (i === steps.length - 1 && step.index === undefined) return found;
    const value = found.prop.value as AnyNode;
    if (step.index === undefined) {
      if (value.type !== "ObjectExpression") return { reason: `"${step.key}" is not an object literal` };
      obj = value;
      continue;
    }
    if (value.type !== "ArrayExpression") return { reason: `"${step.key}" is not an array literal` };
    const elements = value.elements as (AnyNode | null)[];
    if (elements.slice(0, step.index + 1).some((e) => e === null || e.type === "SpreadElement"))
      return { reason: `"${step.key}" has a spread or a hole before element ${step.index}` };
    const element = elements[step.index];
    if (!element || element.type !== "ObjectExpression") return { reason: `${step.key}[${step.index}] is not an object literal` };
    obj = element;
    if (i === steps.length - 1) return { reason: "the path ends at an object, not a function" };
  }
  return { reason: "empty path" };
}

/** Result of {@link isolateEvaluate}: the rewritten module, or why it could not be rewritten. */
export type IsolateResult = { ok: true; code: string } | { ok: false; reason: string };

/**
 * Rewrites an eval module so that its default export is the function at `exportPath`.
 * @param js the module as ECMAScript (TypeScript already stripped)
 * @param exportPath `evaluate` or `cases[N].evaluate` (see {@link parseExportPath})
 * @returns the rewritten module text, or the reason it is not one of the recognised shapes
 *   (a syntax error included); never throws
 */
export function isolateEvaluate(js: string, exportPath: string): IsolateResult {
  const steps = parseExportPath(exportPath);
  if (!steps) return { ok: false, reason: `unsupported export path "${exportPath}"` };
  let program: AnyNode;
  try {
    program = parse(js, { ecmaVersion: "latest", sourceType: "module" }) as unknown as AnyNode;
  } catch (e) {
    return { ok: false, reason: `the module could not be parsed: ${(e as Error).message}` };
  }
  const body = program.body as AnyNode[];
  const exported = body.find((s) => s.type === "ExportDefaultDeclaration");
  // `export { ev as default }` names a binding, like `export default ev`.
  const named = body
    .filter((s) => s.type === "ExportNamedDeclaration" && !s.source)
    .flatMap((s) => s.specifiers as AnyNode[])
    .find((sp) => exportedName(sp) === "default");
  if (!exported && !named) return { ok: false, reason: "no `export default` statement" };
  let declaration = (exported ? exported.declaration : named!.local) as AnyNode;
  // `export default ev` with `const ev = { … }` at the top level: rewrite the const's value.
  let replace: AnyNode | undefined = exported;
  let prefix = "export default ";
  if (declaration.type === "Identifier") {
    const name = declaration.name as string;
    const declarator = body
      .filter((s) => s.type === "VariableDeclaration" && s.kind === "const")
      .flatMap((s) => s.declarations as AnyNode[])
      .find((d) => (d.id as AnyNode).type === "Identifier" && (d.id as AnyNode).name === name && d.init);
    if (!declarator) return { ok: false, reason: `the default export "${name}" is not a top-level const` };
    declaration = declarator.init as AnyNode;
    replace = declaration;
    prefix = "";
  }
  if (declaration.type !== "ObjectExpression" || !replace) return { ok: false, reason: "the default export is not an object literal" };
  const found = locate(declaration, steps);
  if ("reason" in found) return { ok: false, reason: found.reason };
  const key = steps[steps.length - 1].key;
  const property = js.slice(found.prop.start, found.prop.end);
  // Wrapping the property as written keeps every form valid (method, async method, shorthand,
  // arrow, a name bound elsewhere) and calls it with the same `this` rules as before.
  const wrapped = `({ ${property} })[${JSON.stringify(key)}]`;
  const tail = replace === exported ? ";" : "";
  return { ok: true, code: js.slice(0, replace.start) + prefix + wrapped + tail + js.slice(replace.end) };
}
