import { expect, test, type Page } from "./fixtures/test";
import Database from "better-sqlite3";

// Issue 15, "Checks that come with the data" and "Case IDs": two recorded-answer CSVs that use the
// same case IDs go into two prompts of one system; the exact check proposed at mapping is confirmed
// for each, and each prompt is benched without touching a case.
//
// The demo workspace has no system these tests may fill (the other specs count the cases of theirs)
// and the app has no page that creates systems yet, so a system of two prompts is written into the
// e2e server's throwaway database first.
const tag = Date.now().toString(36);
const SYSTEM_ID = `capitals-${tag}`;
const SYSTEM = `/systems/${SYSTEM_ID}`;

test.beforeAll(() => {
  const db = new Database("e2e/.artifacts/e2e.db", { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const now = Date.now();
    db.transaction(() => {
      db.prepare("INSERT INTO systems (id, name, description, created_at) VALUES (?, ?, '', ?)").run(SYSTEM_ID, `Capitals ${tag}`, now);
      for (const name of ["geo-europe", "geo-world"]) {
        const promptId = Number(
          db.prepare("INSERT INTO prompts (system_id, name, description, created_at) VALUES (?, ?, '', ?)").run(SYSTEM_ID, name, now).lastInsertRowid,
        );
        const rev = db
          .prepare(
            "INSERT INTO prompt_revisions (prompt_id, number, system_prompt, model_settings, tools, created_at) VALUES (?, 1, 'Answer with the capital city only.', '{}', '[]', ?)",
          )
          .run(promptId, now).lastInsertRowid;
        db.prepare("UPDATE prompts SET current_revision_id = ? WHERE id = ?").run(rev, promptId);
      }
    })();
  } finally {
    db.close();
  }
});

// Same case IDs in both files; the recorded answers differ in letter case and spelling.
const EUROPE = [
  "id,question,expected,model_a_answer,model_b_answer",
  "cap-01,Capital of France?,Paris,Paris,paris",
  "cap-02,Capital of Spain?,Madrid,Madrid,Madrid",
  "cap-03,Capital of Italy?,Rome,Rome,Roma",
].join("\n");
const WORLD = [
  "id,question,expected,model_a_answer,model_b_answer",
  "cap-01,Capital of Japan?,Tokyo,Tokyo,Tokyo",
  "cap-02,Capital of Peru?,Lima,lima,Lima",
  "cap-03,Capital of Kenya?,Nairobi,Nairobi,Nairobi",
].join("\n");

/** Upload → Map (confirm the proposed exact check) → Save → Use for `prompt`. */
async function importFor(page: Page, name: string, csv: string, prompt: string) {
  await page.goto(`${SYSTEM}/datasets/upload`);
  await page.locator("#upload-file").setInputFiles({ name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Upload and map columns" }).click();
  await expect(page.getByRole("heading", { name: `Map and preview: ${name}.csv` })).toBeVisible();

  const checks = page.getByRole("region", { name: "Checks with the data" });
  const exact = checks.getByRole("checkbox", { name: /Exact match with the expected result \(case-sensitive\)/ });
  await expect(exact).toBeChecked();
  await expect(checks.getByRole("listitem").filter({ hasText: "Exact match" })).toContainText("proposed");
  await expect(checks.getByRole("checkbox", { name: /Output contains the expected result/ })).not.toBeChecked();
  // Confirm: untick and tick again — the choice is the user's, and it is what Save stores.
  await exact.uncheck();
  await exact.check();

  await page.getByRole("complementary", { name: "Save dataset version" }).getByRole("button", { name: "Save version 1" }).click();
  await expect(page.getByRole("heading", { name: `${name} · version 1` })).toBeVisible();
  const use = page.getByRole("complementary", { name: "Use a dataset" });
  await use.getByLabel("Target prompt").selectOption({ label: prompt });
  await expect(use).toContainText("Checks every case gets: Exact match with the expected result (case-sensitive).");
  await use.getByRole("button", { name: "Add 3 golden cases" }).click();
  await expect(use.getByRole("status").filter({ hasText: `Added 3 golden cases to ${prompt}` })).toBeVisible();
}

/** New bench of `prompt` over its two recorded columns, launched without touching a case; returns the results page. */
async function benchRecorded(page: Page, prompt: string) {
  await page.goto(`${SYSTEM}/benches/new?prompt=${encodeURIComponent(prompt)}`);
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByLabel("Candidate 1 recorded output").selectOption("model-a");
  await form.getByLabel("Candidate 2 recorded output").selectOption("model-b");
  await form.getByRole("button", { name: "Plan" }).click();
  const plan = page.getByRole("region", { name: "Plan" });
  await expect(plan).toContainText("Cases included");
  await expect(plan.getByTestId("manifest-row")).toHaveCount(3);
  // Every case has its check: no "no check" warning on the Plan.
  await expect(plan.getByRole("alert", { name: "Cases without a check" })).toHaveCount(0);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/benches\/\d+$/);
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
}

test.describe("Checks that come with the data", () => {
  test("two recorded-answer CSVs with the same case IDs go into two prompts, the proposed exact check is confirmed, and each prompt is benched without touching a case", async ({
    page,
  }) => {
    await importFor(page, `europe-${tag}`, EUROPE, "geo-europe");
    await importFor(page, `world-${tag}`, WORLD, "geo-world");

    // The same case IDs live in both prompts' libraries.
    for (const prompt of ["geo-europe", "geo-world"]) {
      await page.goto(`${SYSTEM}/library?prompt=${prompt}&sort=id-asc`);
      await expect(page.locator("tbody tr")).toHaveCount(3);
      await expect(page.locator("tbody tr").first()).toContainText("cap-01");
    }

    await benchRecorded(page, "geo-europe");
    const rows = page.getByTestId("candidate-row");
    // Exact and case-sensitive: "paris" and "Roma" fail model-b.
    await expect(rows.filter({ hasText: "model-a" })).toContainText("100.0% (3/3)");
    await expect(rows.filter({ hasText: "model-b" })).toContainText("33.3% (1/3)");

    await benchRecorded(page, "geo-world");
    await expect(rows.filter({ hasText: "model-a" })).toContainText("66.7% (2/3)");
    await expect(rows.filter({ hasText: "model-b" })).toContainText("100.0% (3/3)");
  });

  test("a case with no check: the Plan says so, one click makes the exact comparison the prompt's default, and the case panel says the case inherits it", async ({
    page,
  }) => {
    // A third dataset, saved without any check, into a prompt of its own.
    const name = `bare-${tag}`;
    await page.goto(`${SYSTEM}/datasets/upload`);
    await page.locator("#upload-file").setInputFiles({
      name: `${name}.csv`,
      mimeType: "text/csv",
      buffer: Buffer.from("id,question,expected,model_a_answer\nb-1,Capital of Chile?,Santiago,Santiago\n"),
    });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await page
      .getByRole("region", { name: "Checks with the data" })
      .getByRole("checkbox", { name: /Exact match/ })
      .uncheck();
    await page.getByRole("button", { name: "Save version 1" }).click();
    await expect(page.getByRole("heading", { name: `${name} · version 1` })).toBeVisible();
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "geo-europe" });
    await expect(use).toContainText("This version has no checks");
    await use.getByRole("button", { name: "Add 1 golden case" }).click();
    await expect(use.getByRole("status").filter({ hasText: "Added 1 golden case to geo-europe" })).toBeVisible();

    await page.goto(`${SYSTEM}/benches/new?prompt=geo-europe`);
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByLabel("Candidate 1 recorded output").selectOption("model-a");
    await form.getByRole("button", { name: "Plan" }).click();
    const warning = page.getByRole("region", { name: "Plan" }).getByRole("alert", { name: "Cases without a check" });
    await expect(warning).toContainText("1 included case has no check");
    await expect(warning).toContainText("b-1");
    await warning.getByRole("button", { name: "Compare with the expected result (exact) for every case" }).click();
    await expect(warning).toHaveCount(0);

    await page.goto(`${SYSTEM}/library?prompt=geo-europe&q=b-1`);
    await page.locator("tbody tr").getByRole("link").first().click();
    await expect(page.getByTestId("inherited-checks")).toContainText("inherits the prompt's checks");
  });

  test("the Cases tab's bulk action adds a check to ticked rows and removes one from every case matching the filter", async ({ page }) => {
    await page.goto(`${SYSTEM}/library?prompt=geo-world&sort=id-asc`);
    const bulk = page.getByRole("group", { name: "Bulk action" });
    // From the keyboard: Space on a row's case ID ticks the row.
    await page.locator("tbody tr").filter({ hasText: "cap-02" }).getByRole("link").first().focus();
    await page.keyboard.press(" ");
    await expect(page.getByRole("checkbox", { name: "Tick cap-02" })).toBeChecked();
    await bulk.getByLabel("Check").selectOption({ label: "Output is not empty" });
    await bulk.getByRole("button", { name: "Apply to 1 case" }).click();
    await expect(bulk.getByRole("status")).toContainText("Added “Output is not empty” to 1 case (new revisions)");
    await expect(page.locator("tbody tr").filter({ hasText: "cap-02" })).toContainText("rev 2");

    await bulk.getByLabel("Add or remove").selectOption("remove");
    await bulk.getByLabel("Check").selectOption({ label: "Exact match with the expected result" });
    await expect(bulk.getByLabel("Which cases")).toHaveValue("filter");
    await bulk.getByRole("button", { name: "Apply to 3 cases" }).click();
    await expect(bulk.getByRole("status")).toContainText("Removed “Exact match with the expected result” from 3 cases");
    await page.locator("tbody tr").filter({ hasText: "cap-01" }).getByRole("link").first().click();
    await expect(page.getByTestId("inherited-checks")).toContainText("the prompt has no default checks");
  });

  test("case IDs a prompt already uses: Use a dataset offers skip or prefix, and prefix adds the cases under the dataset's name", async ({ page }) => {
    const name = `europe2-${tag}`;
    await page.goto(`${SYSTEM}/datasets/upload`);
    await page.locator("#upload-file").setInputFiles({ name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(EUROPE) });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await page.getByRole("button", { name: "Save version 1" }).click();
    await expect(page.getByRole("heading", { name: `${name} · version 1` })).toBeVisible();
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "geo-europe" });
    await expect(use).toContainText('Row 1: Case ID "cap-01" is already used by a case of prompt "geo-europe".');
    await expect(use.getByRole("button", { name: "Add golden cases" })).toBeDisabled();
    // Not from an earlier version of this dataset: no new revisions offered.
    await expect(use.getByRole("radio")).toHaveCount(2);
    await use.getByRole("radio", { name: "Give the new cases a prefix (the dataset's name)" }).check();
    await use.getByRole("button", { name: "Add golden cases" }).click();
    await expect(use.getByRole("status").filter({ hasText: "Added 3 golden cases to geo-europe" })).toBeVisible();
    await page.goto(`${SYSTEM}/library?prompt=geo-europe&q=${name}-cap-01`);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator("tbody tr")).toContainText(`${name}-cap-01`);
  });

  test("a new version of the same dataset: Use a dataset makes new revisions of the cases it changed and says so", async ({ page }) => {
    // geo-world's cases came from world-<tag> version 1 (the first test); version 2 corrects cap-02's recorded answer and adds cap-04.
    const name = `world-${tag}`;
    const v2 = [
      WORLD.replace("cap-02,Capital of Peru?,Lima,lima,Lima", "cap-02,Capital of Peru?,Lima,Lima,Lima"),
      "cap-04,Capital of Chile?,Santiago,Santiago,Santiago",
    ].join("\n");
    await page.goto(`${SYSTEM}/datasets/upload`);
    await page.locator("#upload-file").setInputFiles({ name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(v2) });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await page.getByLabel("Dataset name").fill(name);
    await page.getByRole("button", { name: "Save version 2" }).click();
    await expect(page.getByRole("heading", { name: `${name} · version 2` })).toBeVisible();
    const use = page.getByRole("complementary", { name: "Use a dataset" });
    await use.getByLabel("Target prompt").selectOption({ label: "geo-world" });
    await use.getByRole("radio", { name: "Make new revisions of the existing cases" }).check();
    await use.getByRole("button", { name: "Add golden cases" }).click();
    // The lasting status (not only the toast) counts the revised and unchanged cases beside the added one.
    await expect(use.getByRole("status").filter({ hasText: "geo-world" })).toContainText(
      "Added 1 golden case to geo-world; 3 existing cases got a new revision.",
    );
  });

  test("Map and preview names the rows a ticked check cannot use (an expected result that is not a regular expression) before saving", async ({ page }) => {
    const name = `patterns-${tag}`;
    await page.goto(`${SYSTEM}/datasets/upload`);
    const csv = "id,question,expected,model_a_answer\np-1,Say hello,^hel+o$,hello\np-2,Say hey,[unclosed,hey\n";
    await page.locator("#upload-file").setInputFiles({ name: `${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    const checks = page.getByRole("region", { name: "Checks with the data" });
    await checks.getByRole("checkbox", { name: /Exact match/ }).uncheck();
    await expect(checks.getByRole("alert")).toHaveCount(0);
    await checks.getByRole("checkbox", { name: /as a regular expression/ }).check();
    const alert = checks.getByRole("alert");
    await expect(alert).toContainText("Row 2: the regex check cannot be made from this row: pattern is not a valid regular expression");
    await expect(alert).not.toContainText("Row 1");
    // Unticking the check clears it.
    await checks.getByRole("checkbox", { name: /as a regular expression/ }).uncheck();
    await expect(checks.getByRole("alert")).toHaveCount(0);
  });
});
