import { describe, expect, it } from "vitest";
import { decodeText, decodeWindows1252, sniffBom } from "./decode";
import { fixture, utf8 } from "./fixtures/load";

describe("decodeText", () => {
  it("detects and strips byte-order marks", () => {
    expect(sniffBom(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe("utf-8");
    expect(sniffBom(new Uint8Array([0xff, 0xfe, 0x41, 0]))).toBe("utf-16le");
    expect(sniffBom(new Uint8Array([0xfe, 0xff, 0, 0x41]))).toBe("utf-16be");
    expect(sniffBom(utf8("A"))).toBeNull();
    expect(decodeText(fixture("csv/utf8-bom.csv"), "f").text.startsWith("question,")).toBe(true);
    expect(decodeText(fixture("csv/utf16be-bom.csv"), "f")).toMatchObject({ encoding: "utf-16be", bom: true });
  });

  it("keeps a second U+FEFF that is part of the text", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x41]);
    expect(decodeText(bytes, "f").text).toBe("\uFEFFA");
  });

  it("uses UTF-8 when the bytes are valid UTF-8, else Windows-1252", () => {
    expect(decodeText(utf8("naïve €"), "f")).toEqual({ text: "naïve €", encoding: "utf-8", bom: false });
    const cp = new Uint8Array([0x80, 0x20, 0x93, 0x61, 0x94, 0x20, 0xe9, 0x92]);
    expect(decodeText(cp, "f")).toEqual({ text: "€ “a” é’", encoding: "windows-1252", bom: false });
  });

  it("decodes every Windows-1252 byte like the WHATWG table (Node's own decoder does not)", () => {
    const all = new Uint8Array(256).map((_, i) => i);
    const text = decodeWindows1252(all);
    expect(text.length).toBe(256);
    expect(text[0x41]).toBe("A");
    expect(text[0x80]).toBe("€");
    expect(text[0x81]).toBe("\u0081");
    expect(text[0x9f]).toBe("Ÿ");
    expect(text[0xff]).toBe("ÿ");
  });

  it("detects UTF-16 without a BOM from its NUL bytes", () => {
    expect(decodeText(fixture("csv/utf16le-no-bom.csv"), "f")).toMatchObject({ encoding: "utf-16le", bom: false });
  });

  it("refuses bytes that are invalid in a forced encoding", () => {
    expect(() => decodeText(new Uint8Array([0xff, 0x41]), "bad.csv", "utf-8")).toThrow("bad.csv is not valid utf-8 text.");
  });
});
