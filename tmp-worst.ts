import * as XLSX from "xlsx";
import { entry, zip } from "./lib/import/fixtures/zip-writer";
const MB = 1048576;
const enc = (s: string) => Buffer.from(s, "utf8");
const CT = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>';
const WB = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
function book(sheet: string, sst: string) {
  return new Uint8Array(zip([entry("[Content_Types].xml", enc(CT)), entry("xl/workbook.xml", enc(WB)), entry("xl/_rels/workbook.xml.rels", enc(RELS)), entry("xl/worksheets/sheet1.xml", enc(sheet)), entry("xl/sharedStrings.xml", enc(sst))]));
}
const size = Number(process.argv[3] ?? 16) * MB;
const kind = process.argv[2];
const col = (c: number) => XLSX.utils.encode_col(c);
let sheet = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
let sst = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>q</t></si></sst>';
const parts: string[] = [];
let n = 0;
if (kind === "wide") { // many numeric cells, 200 per row
  for (let r = 1; n < size; r++) { let row = `<row r="${r}">`; for (let c = 0; c < 200; c++) row += `<c r="${col(c)}${r}"><v>${c}</v></c>`; row += "</row>"; parts.push(row); n += row.length; }
} else if (kind === "tall") { // one cell per row
  for (let r = 1; n < size; r++) { const row = `<row r="${r}"><c r="A${r}"><v>1</v></c></row>`; parts.push(row); n += row.length; }
} else if (kind === "sst") { // tiny unique shared strings
  const s: string[] = ['<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'];
  for (let i = 0; n < size; i++) { const x = `<si><t>${i.toString(36)}</t></si>`; s.push(x); n += x.length; }
  s.push("</sst>"); sst = s.join("");
  parts.push('<row r="1"><c r="A1" t="s"><v>0</v></c></row>');
}
sheet += parts.join("") + "</sheetData></worksheet>";
const bytes = book(sheet, sst);
const rows = process.argv[4] ? Number(process.argv[4]) : undefined;
if (global.gc) global.gc();
const rss0 = process.memoryUsage().rss / MB;
const t0 = performance.now();
const wb = XLSX.read(bytes, { type: "array", dense: true, cellNF: true, sheetRows: rows });
const t1 = performance.now();
console.log(kind, "file", (bytes.length / MB).toFixed(2), "MB; read s", ((t1 - t0) / 1000).toFixed(2), "rss before", rss0.toFixed(0), "maxRSS", (process.resourceUsage().maxRSS / 1024).toFixed(0), "rows", (wb.Sheets.S as any)["!data"]?.length);
