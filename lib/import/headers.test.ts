import { describe, expect, it } from "vitest";
import { freeName, uniqueHeaders } from "./headers";

describe("uniqueHeaders", () => {
  it("keeps unique names, trims, renames repeats with the smallest free suffix", () => {
    expect(uniqueHeaders(["answer", " answer", "answer_2", "answer"]).columns).toEqual(["answer", "answer_3", "answer_2", "answer_4"]);
  });

  it("names empty headers column_N by position, avoiding real names", () => {
    expect(uniqueHeaders(["", "column_1", "  "]).columns).toEqual(["column_1_2", "column_1", "column_3"]);
  });

  it("keeps names exactly when asked not to trim", () => {
    expect(uniqueHeaders([" a", "a"], {}, false).columns).toEqual([" a", "a"]);
  });

  it("freeName", () => {
    expect(freeName("x", new Set(), true)).toBe("x");
    expect(freeName("x", new Set(["x_2"]), false)).toBe("x_3");
  });
});
