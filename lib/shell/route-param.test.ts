import { describe, expect, it } from "vitest";
import { decodeRouteParam } from "./route-param";

describe("decodeRouteParam", () => {
  it("decodes once, and keeps a malformed sequence as written", () => {
    expect(decodeRouteParam("support%20agent")).toBe("support agent");
    expect(decodeRouteParam("a%2520b")).toBe("a%20b");
    expect(decodeRouteParam("100%")).toBe("100%");
  });
});
