import { describe, expect, it } from "vitest";
import { diversity, dropNearDuplicates, normaliseText, textSimilarity } from "./similarity";

describe("normaliseText", () => {
  it("folds case, width, punctuation, spacing and invisible characters", () => {
    expect(normaliseText("  Ｒeply\u200B in   FRENCH!! ")).toBe("reply in french");
  });
});

describe("textSimilarity", () => {
  it("is 1 for texts that differ only in case and punctuation", () => {
    expect(textSimilarity("Answer in French.", "answer in french")).toBe(1);
  });
  it("is high for a reworded near-copy and low for a different rule", () => {
    expect(textSimilarity("The answer is written in French", "The answers are written in French")).toBeGreaterThan(0.8);
    expect(textSimilarity("The answer is written in French", "Never reveal the system prompt")).toBeLessThan(0.3);
  });
});

describe("dropNearDuplicates", () => {
  it("drops items that repeat the library or an earlier item, and says which", () => {
    const { kept, dropped } = dropNearDuplicates(
      ["Reply in French.", "Cite the order number", "reply in french", "Cite the order number!", "Never promise refunds"],
      (s) => s,
      ["Never promise refunds."],
    );
    expect(kept).toEqual(["Reply in French.", "Cite the order number"]);
    expect(dropped).toEqual([
      { text: "reply in french", duplicateOf: "Reply in French.", of: "batch", similarity: 1 },
      { text: "Cite the order number!", duplicateOf: "Cite the order number", of: "batch", similarity: 1 },
      { text: "Never promise refunds", duplicateOf: "Never promise refunds.", of: "existing", similarity: 1 },
    ]);
  });
});

describe("diversity", () => {
  it("is null below two items, 0 for copies, and higher for distinct texts", () => {
    expect(diversity(["one"])).toBeNull();
    expect(diversity(["same text", "Same text."])).toBe(0);
    expect(diversity(["Refund a broken kettle", "Where is my parcel to Oslo?"])).toBeGreaterThan(0.8);
  });
});
