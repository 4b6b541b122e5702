import { describe, expect, it } from "vitest";
import { counted } from "./counted";

describe("counted", () => {
  it("puts the noun in the singular for exactly one, else in the plural (with thousands separators)", () => {
    expect(counted(1, "trial")).toBe("1 trial");
    expect(counted(0, "trial")).toBe("0 trials");
    expect(counted(2_000, "model call")).toBe("2,000 model calls");
    expect(counted(1, "criterion", "criteria")).toBe("1 criterion");
    expect(counted(3, "criterion", "criteria")).toBe("3 criteria");
  });
});
