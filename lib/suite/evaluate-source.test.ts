import { describe, expect, it } from "vitest";
import { exportPathExpression, isolateEvaluate, parseExportPath } from "./evaluate-source";

/** Evaluates a rewritten module's default export (the test stands in for the bundler). */
function defaultOf(code: string, scope: Record<string, unknown> = {}): unknown {
  const body = code.replace(/^import .*$/gm, "").replace("export default ", "return ");
  return new Function(...Object.keys(scope), body)(...Object.values(scope));
}

describe("isolateEvaluate", () => {
  it("makes the eval-level evaluate (a method) the default export and drops the rest of the eval", () => {
    const js = `import { orders } from "../tools/api";
const LIMIT = 2;
function seed(id) { return { setup: () => orders.set(id, 1) }; }
export default { id: "e", cases: [{ id: "a", ...seed("a") }], async evaluate({ output }) { return output.length > LIMIT; } };
`;
    const r = isolateEvaluate(js, "evaluate");
    if (!r.ok) throw new Error(r.reason);
    expect(r.code).toContain('export default ({ async evaluate({ output }) { return output.length > LIMIT; } })["evaluate"];');
    expect(r.code).not.toContain('id: "e"');
    expect(r.code).toContain("const LIMIT = 2;");
  });

  it("finds a case's own evaluate, in every form a property can take", () => {
    const js = `const check = (x) => x === 1;
export default { id: "e", cases: [
  { id: "a", evaluate: ({ output }) => output === "a" },
  { id: "b", evaluate: function ({ output }) { return output === "b"; } },
  { id: "c", evaluate() { return "c"; } },
  { id: "d", "evaluate": check },
] };
`;
    const fns = [0, 1, 2, 3].map((i) => {
      const r = isolateEvaluate(js, `cases[${i}].evaluate`);
      if (!r.ok) throw new Error(r.reason);
      return defaultOf(r.code) as (x: unknown) => unknown;
    });
    expect(fns[0]({ output: "a" })).toBe(true);
    expect(fns[1]({ output: "b" })).toBe(true);
    expect(fns[2]({})).toBe("c");
    expect(fns[3](1)).toBe(true);
  });

  it("follows `export default ev` and `export { ev as default }` to a top-level const", () => {
    const r = isolateEvaluate(`const ev = { id: "e", evaluate: () => 42 };\nexport default ev;\n`, "evaluate");
    if (!r.ok) throw new Error(r.reason);
    expect((defaultOf(r.code) as () => number)()).toBe(42);
    const named = isolateEvaluate(`const ev = { id: "e", evaluate: () => 43 };\nexport { ev as default };\n`, "evaluate");
    if (!named.ok) throw new Error(named.reason);
    expect(named.code).toContain('const ev = ({ evaluate: () => 43 })["evaluate"];');
  });

  it("declines shapes it cannot read statically, saying why", () => {
    const cases: [string, string, RegExp][] = [
      [`export default defineEval({ evaluate() {} });`, "evaluate", /not an object literal/],
      [`export default { evaluate() {}, ...more };`, "evaluate", /spread after "evaluate"/],
      [`export default { cases: [...base, { evaluate() {} }] };`, "cases[1].evaluate", /spread or a hole before element 1/],
      [`export default { cases: [make()] };`, "cases[0].evaluate", /cases\[0\] is not an object literal/],
      [`export default { id: "e" };`, "evaluate", /no property "evaluate"/],
      [`let ev = {}; export default ev;`, "evaluate", /not a top-level const/],
      [`export const x = 1;`, "evaluate", /no `export default`/],
      [`export default {`, "evaluate", /could not be parsed/],
      [`export default {}`, "evaluate()", /unsupported export path/],
    ];
    for (const [js, p, reason] of cases) {
      const r = isolateEvaluate(js, p);
      expect(r.ok, js).toBe(false);
      expect(r.ok ? "" : r.reason, js).toMatch(reason);
    }
  });
});

describe("export paths", () => {
  it("reads evaluate and cases[N].evaluate, and writes a safe accessor", () => {
    expect(parseExportPath("cases[12].evaluate")).toEqual([{ key: "cases", index: 12 }, { key: "evaluate" }]);
    expect(parseExportPath("a.b-c")).toBeNull();
    expect(exportPathExpression("ev", "cases[1].evaluate")).toBe("ev?.cases?.[1]?.evaluate");
    expect(exportPathExpression("ev", "x;y")).toBeNull();
  });
});
