import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./fixtures/test";
import Database from "better-sqlite3";
import { sharedStringsBomb } from "../lib/import/fixtures/hostile-xlsx";

// The Tool use system: the other specs drive Customer support and Grade-school math, and count
// their cases, so the cases these tests add go to a library no other spec reads.
const SYSTEM = "/systems/tool-use";
const UPLOAD = `${SYSTEM}/datasets/upload`;

/** Rows in the e2e server's database (read-only; the server owns it). */
function countRows(table: "dataset_uploads" | "dataset_versions" | "datasets"): number {
  const db = new Database("e2e/.artifacts/e2e.db", { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function uploadFile(page: Page, name: string, text: string | Buffer) {
  await page.goto(UPLOAD);
  await page.locator("#upload-file").setInputFiles({ name, mimeType: "text/csv", buffer: typeof text === "string" ? Buffer.from(text) : text });
  await page.getByRole("button", { name: "Upload and map columns" }).click();
}

test.describe("Datasets", () => {
  test("upload a CSV, map, preview, fix a row, save, use it for a prompt, and find the golden cases in the library", async ({ page }) => {
    const tag = Date.now().toString(36);
    const name = `faq-${tag}`;
    const csv = [
      "question,answer,customer_note,channel",
      `"Where is order ${tag}? Reach me at ann.${tag}@example.com",Ask for the order number,VIP customer,email`,
      `Can I return a toaster ${tag} after 20 days?,,,phone`,
    ].join("\n");

    await page.goto(`${SYSTEM}/datasets`);
    await page.getByRole("link", { name: "Upload cases" }).click();
    await expect(page.getByText(/Up to 4 MB and 5,000 data rows per file/)).toBeVisible();
    await page.locator("#upload-file").setInputFiles({ name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and map columns" }).click();

    // Map: suggested roles, every one changeable; the extra column stays an extra column.
    await expect(page.getByRole("heading", { name: `Map and preview: ${name}.csv` })).toBeVisible();
    await expect(page.getByLabel("Role of column question")).toHaveValue("input");
    await expect(page.getByLabel("Role of column answer")).toHaveValue("expected");
    await expect(page.getByLabel("Role of column channel")).toHaveValue("extra");
    await page.getByLabel("Role of column customer_note").selectOption("notes");

    // Preview: the first mapped rows, and separately the row with a problem.
    const preview = page.locator("#preview");
    await expect(preview.getByRole("row").filter({ hasText: `Where is order ${tag}?` })).toContainText("VIP customer");
    const problems = page.getByRole("list", { name: "Rows with problems" });
    const row2 = problems.getByRole("listitem", { name: "Row 2" });
    await expect(row2).toContainText("Row 2 · line 3");
    await expect(row2).toContainText("Row 2 has no expected result.");
    await expect(row2.getByText("blocked")).toBeVisible();

    // Redaction preview before saving.
    const redaction = page.locator("#redaction");
    await expect(redaction).toContainText(`ann.${tag}@example.com`);
    await expect(redaction).toContainText(`Where is order ${tag}? Reach me at [EMAIL_1]`);

    // Fix the row missing its expected result.
    await row2.getByLabel("Row 2, answer").fill("Yes, within 30 days.");
    await expect(row2.getByText("corrected", { exact: true })).toBeVisible();
    const save = page.getByRole("complementary", { name: "Save dataset version" });
    await expect(save.getByLabel("Dataset name")).toHaveValue(name);
    await expect(save.getByText(`A new dataset “${name}” (version 1).`)).toBeVisible();
    await save.getByRole("button", { name: "Save version 1" }).click();

    // The version page: mapping, redaction report, rows, problems.
    await expect(page).toHaveURL(/\/datasets\/\d+\/versions\/1$/);
    await expect(page.getByRole("heading", { name: `${name} · version 1` })).toBeVisible();
    await expect(page.locator("#mapping")).toContainText("notes");
    await expect(page.locator("#redaction")).toContainText("1 value in 1 row was replaced");
    await expect(page.locator("#redaction")).not.toContainText(`ann.${tag}@example.com`);
    await expect(page.locator("#rows")).toContainText(`Reach me at [EMAIL_1]`);
    await expect(page.locator("#rows")).toContainText("Yes, within 30 days.");

    // Use a dataset.
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "function-caller" });
    await expect(use.getByText("Will add 2 golden cases to function-caller.")).toBeVisible();
    await use.getByRole("button", { name: "Add 2 golden cases" }).click();
    await expect(use.getByText("Added 2 golden cases to function-caller.")).toBeVisible();
    await use.getByRole("link", { name: "Open them in the library" }).click();

    // The library, filtered by source=dataset: the golden cases, redacted.
    await expect(page).toHaveURL(/\/library\?source=dataset&prompt=function-caller/);
    await page.getByLabel("Search case ID, input and expected result").fill(tag);
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "Reach me at [EMAIL_1]" })).toHaveCount(1);
    await expect(page.getByText(`ann.${tag}@example.com`)).toHaveCount(0);
    for (const r of await rows.all()) await expect(r.getByText("dataset", { exact: true })).toBeVisible();
    await rows.filter({ hasText: "toaster" }).getByRole("link").first().click();
    const panel = page.getByRole("complementary", { name: /^Edit case / });
    await expect(panel.getByText(`From dataset ${name} v1, row 2`)).toBeVisible();
    await expect(panel.getByLabel("Expected result")).toHaveValue("Yes, within 30 days.");

    // Uploading again under the same name makes version 2; both stay listed.
    await uploadFile(page, `${name}.csv`, csv);
    await expect(page.getByText(`This will be version 2 of “${name}”.`)).toBeVisible();
    await page.getByRole("list", { name: "Rows with problems" }).getByLabel("Exclude row 2").check();
    await page.getByRole("button", { name: "Save version 2" }).click();
    await expect(page.getByRole("heading", { name: `${name} · version 2` })).toBeVisible();
    await page.getByRole("link", { name: "‹ Datasets" }).click();
    await expect(page.getByRole("link", { name: `${name} version 1` })).toBeVisible();
    await expect(page.getByRole("link", { name: `${name} version 2` })).toBeVisible();
  });

  test("a CSV with a title above its header, JSON variables, a tool-call history and business contact data", async ({ page }) => {
    const tag = Date.now().toString(36);
    const name = `titled-${tag}`;
    const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const history = JSON.stringify([
      { role: "user", content: "Where is my order?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "get_order", arguments: '{"order_id":"A-1001"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status":"shipped"}' },
    ]);
    const csv = [
      "Customer FAQ export,,,,",
      ",,,,",
      "question,answer,variables,messages,id",
      `Delete my data ${tag}? I am ann.${tag}@example.com,Contact privacy@northwind.example,${quote('{"shop_name": "Northwind Goods", "tier": "gold"}')},${quote(history)},kp-${tag}-1`,
      `Second question ${tag},Fine,${quote('{"shop_name": "Northwind", tier: gold}')},,kp-${tag}-2`,
      "   ",
    ].join("\n");
    await uploadFile(page, `${name}.csv`, csv);

    // The header is found below the title; the title is reported, not lost; the blank last line is no row.
    await expect(page.getByText("Line 3 is used as the header")).toBeVisible();
    await expect(page.getByLabel("Header row")).toHaveValue("3");
    await expect(page.getByText('Lines 1–2 are above the header (line 3) and were left out: "Customer FAQ export".')).toBeVisible();
    await expect(page.getByLabel("Role of column question")).toHaveValue("input");
    await expect(page.getByLabel("Role of column variables")).toHaveValue("variables_json");
    await expect(page.locator("#preview")).toContainText("All 2 mapped rows");
    await expect(page.locator("#preview")).toContainText("{{shop_name}} Northwind Goods");

    // Bad JSON in the variables column: a row problem naming row and column; corrected in place.
    const problems = page.getByRole("list", { name: "Rows with problems" });
    const row2 = problems.getByRole("listitem", { name: "Row 2" });
    await expect(row2).toContainText('Row 2: column "variables" is not a JSON object of variables');
    await expect(row2.getByText("blocked")).toBeVisible();
    await row2.getByLabel("Row 2, variables").fill('{"shop_name": "Northwind", "tier": "silver"}');
    await expect(row2.getByText("corrected", { exact: true })).toBeVisible();

    // Redaction keeps the business address once it is on the keep-list.
    const redaction = page.locator("#redaction");
    await expect(redaction).toContainText("Contact [EMAIL_2]");
    await redaction.getByLabel("Keep these values as written").fill("*@northwind.example");
    await expect(redaction.getByTestId("redaction-kept")).toContainText("*@northwind.example · 1 value to keep");
    await expect(redaction).not.toContainText("Contact [EMAIL_2]");
    // Save counts the warnings the version will list, the title above the header among them (it said 0).
    const warnings = page
      .getByRole("complementary", { name: "Save dataset version" })
      .locator("dt", { hasText: /^Warnings$/ })
      .locator("xpath=following-sibling::dd[1]");
    await expect(warnings).not.toHaveText("0");
    const warningCount = Number(await warnings.innerText());
    await page.getByRole("button", { name: "Save version 1" }).click();

    // The version: header line, the keep-list in the report, the rows as stored.
    await expect(page.getByRole("heading", { name: `${name} · version 1` })).toBeVisible();
    await expect(page.getByText(/header on line 3/)).toBeVisible();
    await expect(page.getByText(new RegExp(`^\\d+ errors?, ${warningCount} warnings? when it was saved\\.$`))).toBeVisible();
    await expect(page.locator("#redaction").getByTestId("redaction-kept")).toContainText("*@northwind.example · 1 value kept");
    await expect(page.locator("#rows")).toContainText("Contact privacy@northwind.example");
    await expect(page.locator("#rows")).toContainText(`I am [EMAIL_1]`);

    // Into the library: the tool call shows with its arguments, the variables one per key.
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "function-caller" });
    await use.getByRole("button", { name: "Add 2 golden cases" }).click();
    await expect(use.getByText("Added 2 golden cases to function-caller.")).toBeVisible();
    await page.goto(`${SYSTEM}/library`);
    await page.getByLabel("Search case ID, input and expected result").fill(`kp-${tag}-1`);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await page.locator("tbody tr").getByRole("link").first().click();
    const panel = page.getByRole("complementary", { name: `Edit case kp-${tag}-1` });
    await panel.getByText("More details").click();
    const turn2 = panel.getByLabel("Tool activity of turn 2");
    await expect(turn2).toContainText("Calls get_order");
    await expect(turn2).toContainText('"order_id": "A-1001"');
    await expect(panel.getByLabel("Turn 2 text")).toHaveCount(0);
    await expect(panel.getByLabel("Tool activity of turn 3")).toContainText("Result of tool call call_1");
    await expect(panel.getByLabel("Variables 1 value")).toHaveValue("Northwind Goods");
    await expect(panel.getByLabel("Variables 2 name")).toHaveValue("tier");
  });

  test("a blocked row stays out of the library until it is corrected in a new version", async ({ page }) => {
    const tag = Date.now().toString(36);
    await uploadFile(page, `blocked-${tag}.csv`, `question,answer\nPing ${tag},Pong\nNo answer ${tag},\n`);
    await page.getByRole("button", { name: "Save version 1" }).click();
    await expect(page.getByRole("heading", { name: `blocked-${tag} · version 1` })).toBeVisible();
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "function-caller" });
    await expect(use).toContainText("1 blocked row will not be added until corrected or excluded");
    await expect(use.getByRole("listitem").filter({ hasText: "Row 2 has no expected result." })).toBeVisible();
    await expect(use.getByRole("button", { name: "Add 1 golden case" })).toBeEnabled();
    await use.getByRole("button", { name: "Correct in a new version" }).click();
    // Map and preview opens on the same file with the version's choices.
    await expect(page.getByText(/Starting from version 1 of “blocked-/)).toBeVisible();
    await page.getByLabel("Row 2, answer").fill("Still here");
    await page.getByRole("button", { name: "Save version 2" }).click();
    await expect(page.getByRole("heading", { name: `blocked-${tag} · version 2` })).toBeVisible();
    await use.getByLabel("Target prompt").selectOption({ label: "function-caller" });
    await use.getByRole("button", { name: "Add 2 golden cases" }).click();
    await expect(use.getByText("Added 2 golden cases to function-caller.")).toBeVisible();
  });

  test("an over-limit file and a corrupt file are refused with a clear message, and nothing is stored", async ({ page, request }) => {
    const before = { uploads: countRows("dataset_uploads"), versions: countRows("dataset_versions") };
    await page.goto(UPLOAD);
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, "a");
    await page.locator("#upload-file").setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: big });
    await expect(page.locator("#upload-error")).toContainText("big.csv is 4.0 MB (4,194,305 bytes); the limit is 4 MB (4,194,304 bytes).");
    await expect(page.getByRole("button", { name: "Upload and map columns" })).toBeDisabled();
    // The server enforces the limit too, whatever the page does.
    const r = await request.post(`/api/systems/tool-use/uploads?name=big.csv`, { data: big, headers: { "content-type": "application/octet-stream" } });
    expect(r.status()).toBe(413);
    expect((await r.json()).error.message).toMatch(/big\.csv is 4\.0 MB .*the limit is 4 MB/);

    await uploadFile(page, "broken.xlsx", Buffer.from("PK\u0003\u0004 this is not a workbook"));
    await expect(page.locator("#upload-error")).toContainText("broken.xlsx is not a readable XLSX file");
    await expect(page).toHaveURL(/\/datasets\/upload$/);
    await uploadFile(page, "broken.json", '[{"question": "a", ');
    await expect(page.locator("#upload-error")).toContainText("broken.json");
    expect({ uploads: countRows("dataset_uploads"), versions: countRows("dataset_versions") }).toEqual(before);
  });

  test("a workbook declaring a million rows opens with its two rows; one unpacking to 62 MB of shared strings is refused naming the part; unsaved uploads are listed", async ({
    page,
  }) => {
    const before = countRows("dataset_uploads");
    await uploadFile(page, "huge-dimension.xlsx", readFileSync("lib/import/fixtures/xlsx/huge-dimension.xlsx"));
    await expect(page.getByRole("heading", { name: "Map and preview: huge-dimension.xlsx" })).toBeVisible();
    await expect(page.getByLabel("Role of column question")).toHaveValue("input");
    const save = page.getByRole("complementary", { name: "Save dataset version" });
    await expect(save.locator("dt", { hasText: /^Rows$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("2");

    await uploadFile(page, "strings.xlsx", Buffer.from(sharedStringsBomb(62 * 1024 * 1024)));
    await expect(page.locator("#upload-error")).toContainText(
      "strings.xlsx: its shared strings (part xl/sharedStrings.xml) unpack to 62.0 MB; the limit is 16 MB per part.",
    );
    expect(countRows("dataset_uploads")).toBe(before + 1);
    const unsaved = page.getByRole("region", { name: "Unsaved uploads" });
    await page.goto(UPLOAD);
    await expect(unsaved.getByRole("listitem").filter({ hasText: "huge-dimension.xlsx" })).toContainText('sheet "Huge"');
  });

  test("exports a dataset version and a prompt's library as CSV with formula cells escaped", async ({ page, request }) => {
    const tag = Date.now().toString(36);
    await uploadFile(page, `export-${tag}.csv`, `question,answer\n=1+2 ${tag},+1\n`);
    await page.getByRole("button", { name: "Save version 1" }).click();
    await expect(page.getByRole("heading", { name: `export-${tag} · version 1` })).toBeVisible();
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    const csv = await request.get(href!);
    expect(csv.headers()["content-disposition"]).toContain(`export-${tag}-v1.csv`);
    expect(await csv.text()).toContain(`"'=1+2 ${tag}","'+1"`);
    const jsonl = await request.get(href!.replace("format=csv", "format=jsonl"));
    expect(JSON.parse((await jsonl.text()).trim())).toEqual({ question: `=1+2 ${tag}`, answer: "+1" });
    await page.goto(`${SYSTEM}/library?prompt=function-caller`);
    const lib = await request.get((await page.getByRole("link", { name: "CSV", exact: true }).getAttribute("href"))!);
    expect(lib.headers()["content-disposition"]).toContain("tool-use-function-caller-library.csv");
    expect((await lib.text()).split("\r\n")[0]).toMatch(/^\uFEFF?case_id,prompt,source,status,input,expected,notes,tags/);
  });
});
