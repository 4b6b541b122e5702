import { describe, expect, it } from "vitest";
import { argumentRowsProblem } from "./tool-call-form";

describe("tool-call form argument rows", () => {
  it("flags a duplicate or empty name instead of merging rows", () => {
    expect(argumentRowsProblem([{ name: "order" }, { name: "order_id" }])).toBeNull();
    expect(argumentRowsProblem([{ name: "order" }, { name: "order" }])).toBe("Argument “order” appears twice: give each argument its own name.");
    expect(argumentRowsProblem([{ name: "order" }, { name: " " }])).toBe("Every argument needs a name.");
  });
});
