import { describe, expect, it } from "vitest";
import { promptChangeCandidates } from "./prompt-change";

describe("promptChangeCandidates", () => {
  it("is the previous revision (baseline) against the current one on the same model", () => {
    expect(
      promptChangeCandidates(
        [
          { id: 9, number: 3 },
          { id: 7, number: 2 },
          { id: 1, number: 1 },
        ],
        4,
      ),
    ).toEqual({
      candidates: [
        { kind: "model", modelConfigId: 4, promptRevisionId: 7 },
        { kind: "model", modelConfigId: 4 },
      ],
      baseline: { kind: "candidate", index: 0 },
    });
  });
  it("is null for a prompt with one revision", () => {
    expect(promptChangeCandidates([{ id: 1, number: 1 }], 4)).toBeNull();
  });
});
