import { describe, expect, it } from "vitest";
import { formatValueLines, parseValueLines } from "./json-lines";

describe("accepted value lines", () => {
  it("reads JSON values and bare text", () => {
    expect(parseValueLines('returns\n10\n"10"\ntrue\n[1, 2]\n\n""\n')).toEqual(["returns", 10, "10", true, [1, 2], ""]);
  });
  it("round-trips", () => {
    const values = ["returns", 10, "10", true, [1, 2], "", " padded", "a,b", { k: 1 }];
    expect(parseValueLines(formatValueLines(values))).toEqual(values);
  });
});
