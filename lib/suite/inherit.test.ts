import { describe, expect, it } from "vitest";
import { mergeLabels, mergeMetadata, resolveFields } from "./inherit";

describe("resolveFields (parameterised cases)", () => {
  const evalFields = {
    prompt: "eval prompt",
    systemPrompt: "be brief",
    tools: ["lookup_policy"],
    data: { a: 1 },
    labels: ["smoke", "policy"],
    metadata: { owner: "support", tier: 1 },
    timeoutSeconds: 30,
  };

  it("takes the eval's value for a key the case leaves out (absent or undefined)", () => {
    const f = resolveFields(evalFields, { prompt: "case prompt", tools: undefined });
    expect(f.prompt).toBe("case prompt");
    expect(f.systemPrompt).toBe("be brief");
    expect(f.tools).toEqual(["lookup_policy"]);
    expect(f.data).toEqual({ a: 1 });
    expect(f.timeoutSeconds).toBe(30);
  });

  it("clears a key the case sets to null", () => {
    const f = resolveFields(evalFields, { systemPrompt: null, tools: null, data: null, timeoutSeconds: null });
    expect(f.systemPrompt).toBeNull();
    expect(f.tools).toBeNull();
    expect(f.data).toBeNull();
    expect(f.timeoutSeconds).toBeNull();
  });

  it("replaces data as a whole (only labels and metadata merge)", () => {
    expect(resolveFields(evalFields, { data: { b: 2 } }).data).toEqual({ b: 2 });
  });

  it("merges labels with the eval's, eval's first, without duplicates; labels: null clears them", () => {
    expect(resolveFields(evalFields, { labels: ["edge", "smoke", "edge"] }).labels).toEqual(["smoke", "policy", "edge"]);
    expect(resolveFields(evalFields, {}).labels).toEqual(["smoke", "policy"]);
    expect(resolveFields(evalFields, { labels: null }).labels).toEqual([]);
    expect(resolveFields({}, {}).labels).toEqual([]);
  });

  it("merges metadata with the case winning; metadata: null clears it", () => {
    expect(resolveFields(evalFields, { metadata: { tier: 2, region: "eu" } }).metadata).toEqual({ owner: "support", tier: 2, region: "eu" });
    expect(resolveFields(evalFields, { metadata: null }).metadata).toEqual({});
    expect(resolveFields({}, {}).metadata).toEqual({});
  });

  it("gives null for a field neither sets", () => {
    const f = resolveFields({}, {});
    expect(f.criteria).toBeNull();
    expect(f.expected).toBeNull();
    expect(f.evaluate).toBeNull();
  });

  it("helpers: mergeLabels and mergeMetadata", () => {
    expect(mergeLabels(["a"], undefined)).toEqual(["a"]);
    expect(mergeLabels(undefined, ["b", "b"])).toEqual(["b"]);
    expect(mergeMetadata({ x: 1 }, undefined)).toEqual({ x: 1 });
  });
});
