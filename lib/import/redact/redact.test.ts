import { describe, expect, it } from "vitest";
import { applyMapping } from "../mapping";
import { cardNumberValid, codiceFiscaleValid, ibanValid, ipv6Valid, luhnValid, spanishIdValid } from "./checks";
import { findPii } from "./detectors";
import { RowRedactor, redactString } from "./redact";
import { previewRedaction, redactTable } from "./table";
import type { ImportTable } from "../types";

const r = (text: string) => redactString(text).text;

describe("checks", () => {
  it("validates checksums", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(cardNumberValid("0000000000000000")).toBe(false);
    expect(cardNumberValid("1700000000008")).toBe(false);
    expect(cardNumberValid("378282246310005")).toBe(true);
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("GB82WEST12345698765433")).toBe(false);
    expect(ibanValid("DE89370400440532013000")).toBe(true);
    expect(ibanValid("DE8937040044053201300")).toBe(false);
    expect(ipv6Valid("2001:db8::8a2e:370:7334")).toBe(true);
    expect(ipv6Valid("::ffff:192.0.2.1")).toBe(true);
    expect(ipv6Valid("1:2:3:4:5:6:7:8")).toBe(true);
    expect(ipv6Valid("1:2:3")).toBe(false);
    expect(ipv6Valid("1::2::3")).toBe(false);
    expect(spanishIdValid("12345678Z")).toBe(true);
    expect(spanishIdValid("12345678A")).toBe(false);
    expect(spanishIdValid("X1234567L")).toBe(true);
    expect(codiceFiscaleValid("RSSMRA85T10A562S")).toBe(true);
    expect(codiceFiscaleValid("RSSMRA85T10A562T")).toBe(false);
  });
});

describe("detection", () => {
  it("replaces e-mail addresses; the same address twice gets the same placeholder (case-insensitive)", () => {
    expect(r("Mail John.Doe@Example.co.uk or john.doe@example.co.uk, cc ops+alerts@sub.example.org.")).toBe("Mail [EMAIL_1] or [EMAIL_1], cc [EMAIL_2].");
    expect(r("josé@exämple.de")).toBe("[EMAIL_1]");
    expect(r("not an email: a@b, @handle, x@y.z")).toBe("not an email: a@b, @handle, x@y.z");
  });

  it("replaces international and common national phone formats", () => {
    expect(
      r(
        "+1 (555) 123-4567 | +44 20 7946 0958 | +33612345678 | +49 (0)30 1234567 | 555-123-4567 | (555) 123-4567 | 1-800-555-0199 | 020 7946 0958 | 06 12 34 56 78 | 030 1234567",
      ),
    ).toBe("[PHONE_1] | [PHONE_2] | [PHONE_3] | [PHONE_4] | [PHONE_5] | [PHONE_5] | [PHONE_6] | [PHONE_7] | [PHONE_8] | [PHONE_9]");
  });

  it("leaves plain numbers, years, prices, dates, arithmetic and short order numbers alone", () => {
    const text =
      "In 1999 it cost $1,250,000 (order 123456, ref 0612345678); 2019-2024; 2024-03-05; 05-03-2024; 12/03/2024; 125 000 000; 10800-1200 = 9600; 1250-200-700; v10.4; ISBN 978-0-13-468599-1; 6.666666666666667; 12345678901234567890; 1700000000000";
    expect(r(text)).toBe(text);
  });

  it("stops a phone before a following number", () => {
    expect(r("call 555 123 4567 2024 now")).toBe("call [PHONE_1] 2024 now");
  });

  it("replaces Luhn-valid card numbers in their printed groupings only", () => {
    expect(r("4111 1111 1111 1111, 4111-1111-1111-1111, 5500000000000004, 3782 822463 10005")).toBe("[CARD_1], [CARD_1], [CARD_2], [CARD_3]");
    expect(r("4111111111111112 and 3704 0044 0532 0130 01")).toBe("4111111111111112 and 3704 0044 0532 0130 01");
  });

  it("replaces IBANs with a valid checksum, grouped or not, not the word after them", () => {
    expect(r("Pay DE89 3704 0044 0532 0130 00 OK or GB82WEST12345698765432.")).toBe("Pay [IBAN_1] OK or [IBAN_2].");
    expect(r("Not GB82WEST12345698765433")).toBe("Not GB82WEST12345698765433");
  });

  it("replaces IPv4 and IPv6 addresses but not times, versions with 5 parts or invalid quads", () => {
    expect(r("from 192.168.0.1 and 2001:db8::ff00:42:8329, ::1, ::ffff:192.0.2.1")).toBe("from [IP_1] and [IP_2], [IP_3], [IP_4]");
    expect(r("at 12:30:45, 10.0.0.256, 1.2.3.4.5, std::vector")).toBe("at 12:30:45, 10.0.0.256, 1.2.3.4.5, std::vector");
  });

  it("replaces national IDs: US SSN (valid areas), UK NINO, Spanish DNI/NIE, Italian codice fiscale", () => {
    expect(r("SSN 123-45-6789 or 123 45 6789; NINO AB 12 34 56 C / AB123456C; DNI 12345678Z; NIE X-1234567-L; CF RSSMRA85T10A562S")).toBe(
      "SSN [NATIONAL_ID_1] or [NATIONAL_ID_1]; NINO [NATIONAL_ID_2] / [NATIONAL_ID_2]; DNI [NATIONAL_ID_3]; NIE [NATIONAL_ID_4]; CF [NATIONAL_ID_5]",
    );
    const invalid = "000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000 QQ123456C GB123456A 12345678A";
    expect(r(invalid)).toBe(invalid);
  });

  it("finds matches in text order without overlaps", () => {
    expect(findPii("x john.5551234567@mail.com y").map((m) => m.type)).toEqual(["email"]);
  });

  it("redacts only the requested types", () => {
    expect(redactString("a@b.co +44 20 7946 0958", ["phone"]).text).toBe("a@b.co [PHONE_1]");
  });
});

describe("row numbering", () => {
  it("numbers per type in order of appearance across the cells of a row", () => {
    const row = new RowRedactor();
    const counts = {};
    expect(row.redactCell("a@x.com then b@x.com", counts)).toBe("[EMAIL_1] then [EMAIL_2]");
    expect(row.redactCell("again B@x.com, call +44 20 7946 0958", counts)).toBe("again [EMAIL_2], call [PHONE_1]");
    expect(counts).toEqual({ email: 3, phone: 1 });
  });

  it("redacts inside JSON cells, keeping them valid JSON", () => {
    const row = new RowRedactor();
    const counts = {};
    const cell = '[{"role": "user", "content": "I am a@x.com"}, {"role": "tool", "content": {"card": 4111111111111111, "n": 1e5}}]';
    const out = row.redactCell(cell, counts);
    expect(out).toBe('[{"role":"user","content":"I am [EMAIL_1]"},{"role":"tool","content":{"card":"[CARD_1]","n":1e5}}]');
    expect(JSON.parse(out)).toBeTruthy();
    expect(row.redactCell('{"a": "nothing here"}', counts)).toBe('{"a": "nothing here"}');
  });
});

function table(columns: string[], rows: string[][]): ImportTable {
  return { fileName: "t.csv", format: "csv", encoding: "utf-8", columns, rows, sourceKind: "line", rowSources: rows.map((_, i) => i + 2), problems: [] };
}

describe("redactTable", () => {
  const t = table(
    ["question", "answer", "history", "gpt_output", "contact"],
    [
      ["Email me at ann@example.com", "ok", "user: my card is 4111 1111 1111 1111", "Sure ann@example.com", "ann@example.com, +1 555 123 4567"],
      ["Same question", "ok", "", "", ""],
      ["Same question", "ok", "", "", "bob@example.org"],
    ],
  );

  it("redacts every column, numbers placeholders per row and reports counts and a preview", () => {
    const { table: out, report } = redactTable(t, { previewLimit: 3 });
    expect(out.rows).toEqual([
      ["Email me at [EMAIL_1]", "ok", "user: my card is [CARD_1]", "Sure [EMAIL_1]", "[EMAIL_1], [PHONE_1]"],
      ["Same question", "ok", "", "", ""],
      ["Same question", "ok", "", "", "[EMAIL_1]"],
    ]);
    expect(out.rows[1]).toBe(t.rows[1]);
    expect(t.rows[0][0]).toBe("Email me at ann@example.com");
    expect(report.totals).toEqual({ email: 4, phone: 1, card: 1, iban: 0, ip: 0, national_id: 0 });
    expect(report.columns).toEqual([
      { column: "question", counts: { email: 1 }, total: 1 },
      { column: "history", counts: { card: 1 }, total: 1 },
      { column: "gpt_output", counts: { email: 1 }, total: 1 },
      { column: "contact", counts: { email: 2, phone: 1 }, total: 3 },
    ]);
    expect(report.changedCells).toBe(5);
    expect(report.changedRows).toBe(2);
    expect(report.preview).toEqual([
      { row: 1, column: "question", before: "Email me at ann@example.com", after: "Email me at [EMAIL_1]" },
      { row: 1, column: "history", before: "user: my card is 4111 1111 1111 1111", after: "user: my card is [CARD_1]" },
      { row: 1, column: "gpt_output", before: "Sure ann@example.com", after: "Sure [EMAIL_1]" },
    ]);
    expect(previewRedaction(t, { previewLimit: 3 })).toEqual(report);
  });

  it("keeps extra columns and repeated inputs; history turns and recorded outputs carry the placeholders", () => {
    const { table: out } = redactTable(t);
    const mapped = applyMapping(out, [
      { column: "question", role: "input" },
      { column: "answer", role: "expected" },
      { column: "history", role: "history" },
      { column: "gpt_output", role: "actual_output", candidate: "gpt" },
    ]);
    expect(mapped.drafts).toHaveLength(3);
    expect(mapped.drafts[1].content.input).toBe(mapped.drafts[2].content.input);
    expect(mapped.drafts[0].content.history).toEqual([{ role: "user", content: "my card is [CARD_1]", replayable: true }]);
    expect(mapped.drafts[0].content.recordedOutputs).toEqual({ gpt: "Sure [EMAIL_1]" });
    expect(mapped.drafts[0].content.extra).toEqual({ contact: "[EMAIL_1], [PHONE_1]" });
  });
});
