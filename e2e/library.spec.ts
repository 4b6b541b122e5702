import { expect, test, type Page } from "./fixtures/test";

const LIB = "/systems/customer-support/library";

async function addCase(page: Page, o: { prompt?: string; input: string; expected: string; caseId?: string }) {
  await page.goto(LIB);
  await page.getByRole("link", { name: "Add case" }).click();
  const panel = page.getByRole("complementary", { name: "Add case" });
  if (o.prompt) await panel.getByLabel("Target prompt").selectOption({ label: o.prompt });
  await panel.getByLabel("Input").fill(o.input);
  await panel.getByLabel("Expected result").fill(o.expected);
  if (o.caseId) await panel.getByLabel("Case ID (optional)").fill(o.caseId);
  await panel.getByRole("button", { name: "Add case" }).click();
}

test.describe("Test library: cases", () => {
  test("opens on Cases with All cases, ten per page, and pages to page 2", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: /Customer support/ }).click();
    await expect(page.getByRole("tab", { name: "Cases" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("link", { name: /^All cases/ })).toHaveAttribute("aria-current", "true");
    await expect(page.locator("tbody tr")).toHaveCount(10);
    const total = Number((await page.getByRole("link", { name: /^All cases/ }).innerText()).replace(/\D/g, ""));
    expect(total).toBeGreaterThanOrEqual(162);
    await expect(page.getByText(`Showing 1–10 of ${total}`)).toBeVisible();
    // The first cell is the row's tick for the bulk action; the case ID comes second.
    const firstPage = await page.locator("tbody tr td:nth-child(2)").allInnerTexts();
    // Keyboard: one tab stop per row (its case ID), ↓ moves to the next row, Enter opens the case.
    await page.locator("tbody tr").first().getByRole("link").first().focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.locator("tbody tr").nth(1).getByRole("link").first()).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.locator("tbody tr").nth(2).getByRole("link").first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("complementary", { name: `Edit case ${firstPage[2].trim()}` })).toBeVisible();
    await page.goto(LIB);
    await page.getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(`Showing 11–20 of ${total}`)).toBeVisible();
    const secondPage = await page.locator("tbody tr td:nth-child(2)").allInnerTexts();
    expect(secondPage).toHaveLength(10);
    expect(secondPage.some((id) => firstPage.includes(id))).toBe(false);
    // The URL reproduces the view.
    await page.goto(`${LIB}?page=2&prompt=intent-router`);
    await expect(page.getByLabel("Prompt")).toHaveValue("intent-router");
    await expect(page.getByText(/Showing 11–20 of 154/)).toBeVisible();
    // The source chips count within the prompt filter; Clear filters goes back to every case.
    await expect(page.getByRole("link", { name: /^All cases/ })).toHaveText(/All cases\s*154/);
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`${LIB}$`));
    await expect(page.getByLabel("Prompt")).toHaveValue("");
    await expect(page.getByRole("link", { name: /^All cases/ })).toHaveText(new RegExp(`All cases\\s*${total}`));
    await expect(page.getByRole("link", { name: "Clear filters" })).toHaveCount(0);
    // Clear right after typing: the pending search does not come back, and focus stays in the toolbar.
    await page.goto(`${LIB}?status=active`);
    await page.getByLabel("Search case ID, input and expected result").fill("order");
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`${LIB}$`));
    await page.waitForTimeout(600);
    await expect(page).toHaveURL(new RegExp(`${LIB}$`));
    await expect(page.getByLabel("Search case ID, input and expected result")).toHaveValue("");
    await expect(page.getByLabel("Search case ID, input and expected result")).toBeFocused();
  });

  test("a dataset case shows its recorded outputs, read-only, in the panel", async ({ page }) => {
    await page.goto("/systems/grade-school-math/library");
    const first = page.locator("tbody tr").first().getByRole("link").first();
    const key = (await first.innerText()).trim();
    await first.click();
    const panel = page.getByRole("complementary", { name: `Edit case ${key}` });
    const recorded = panel.getByTestId("recorded-view");
    await expect(recorded).toContainText("4 recorded outputs");
    await recorded.getByText("Recorded outputs").click();
    await expect(recorded.getByText("Output of model-175b-verification")).toBeVisible();
    // A recorded solution ends with its answer line ("A: 15000").
    await expect(recorded.locator("pre").first()).toContainText(/\nA: -?[\d.,]+$/);
  });

  test("add a case, edit it twice into three revisions, pause, filter, remove", async ({ page }) => {
    const id = `e2e-refund-${Date.now()}`;
    await addCase(page, { prompt: "support-agent", input: "Can I return a toaster after 20 days?", expected: "Yes, within 30 days.", caseId: id });
    await expect(page.getByText(`Added case ${id}`)).toBeVisible();
    const panel = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panel).toBeVisible();
    await expect(panel.getByText("Revision 1 (current)")).toBeVisible();

    // Edit 1: input and a history turn and a variable.
    await panel.getByLabel("Input").fill("Can I return an unopened toaster after 20 days?");
    await panel.getByText("More details").click();
    await panel.getByRole("button", { name: "Add turn" }).click();
    await panel.getByLabel("Turn 1 text").fill("Hi, I have a question about returns.");
    await panel.getByRole("button", { name: "Add variable" }).click();
    await panel.getByLabel("Variables 1 name").fill("shop_name");
    await panel.getByLabel("Variables 1 value").fill("Northwind Goods");
    await panel.getByRole("button", { name: "Save for future benches" }).click();
    const toastText = page.getByText(`Saved ${id} as revision 2`);
    await expect(toastText).toBeVisible();
    await expect(panel.getByText("Revision 2 (current)")).toBeVisible();
    // A toast does not take the clicks meant for what is under it (the panel's revisions list).
    const box = (await toastText.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest("[role=status]") !== null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toBe(false);

    // Edit 2: expected result.
    await panel.getByLabel("Expected result").fill("Yes: an unopened toaster comes back within 30 days.");
    await panel.getByRole("button", { name: "Save for future benches" }).click();
    await expect(panel.getByText("Revision 3 (current)")).toBeVisible();
    await expect(panel.getByRole("link", { name: /^Revision \d$/ })).toHaveCount(2);

    // Revision 1 is shown read-only and unchanged.
    await panel.getByRole("link", { name: "Revision 1" }).click();
    const rev1 = page.getByRole("complementary", { name: `Revision 1 of ${id}` });
    await expect(rev1.getByText("Can I return a toaster after 20 days?")).toBeVisible();
    await expect(rev1.getByText("read-only")).toBeVisible();
    await rev1.getByRole("link", { name: /Back to the current revision/ }).click();

    // Revision 2 kept the history turn and variable.
    const edit = page.getByRole("complementary", { name: `Edit case ${id}` });
    await edit.getByText("More details").click();
    await expect(edit.getByLabel("Turn 1 text")).toHaveValue("Hi, I have a question about returns.");
    await expect(edit.getByLabel("Variables 1 value")).toHaveValue("Northwind Goods");

    // Pause, then filter by status.
    await edit.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByText(new RegExp(`Paused ${id}`))).toBeVisible();
    await expect(edit.getByRole("button", { name: "Resume" })).toBeVisible();
    await page.getByLabel("Status").selectOption("paused");
    await expect(page).toHaveURL(/status=paused/);
    await expect(page.locator("tbody tr", { hasText: id })).toHaveCount(1);
    await expect(page.locator("tbody tr").filter({ hasText: "active" })).toHaveCount(0);
    await page.getByLabel("Status").selectOption("active");
    await expect(page.locator("tbody tr", { hasText: id })).toHaveCount(0);

    // Filter by source: custom shows our case, dataset does not.
    await page.goto(`${LIB}?source=custom`);
    await expect(page.locator("tbody tr", { hasText: id })).toHaveCount(1);
    await expect(page.locator("tbody tr").filter({ hasText: "dataset" })).toHaveCount(0);
    // Scoped to the Source filters: the system nav also has a "Datasets" link.
    await page
      .getByRole("group", { name: "Source" })
      .getByRole("link", { name: /^Dataset/ })
      .click();
    await expect(page).toHaveURL(/source=dataset/);
    await expect(page.locator("tbody tr", { hasText: id })).toHaveCount(0);

    // Search finds it by its expected result.
    await page.goto(LIB);
    await page.getByLabel("Search case ID, input and expected result").fill("unopened toaster comes back");
    await expect(page).toHaveURL(/q=unopened\+toaster/);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator("tbody tr")).toContainText(id);
    // …and by part of its case ID, in any letter case.
    await page.getByLabel("Search case ID, input and expected result").fill(id.slice(4).toUpperCase());
    await expect(page).toHaveURL(new RegExp(`q=${id.slice(4).toUpperCase()}`));
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator("tbody tr")).toContainText(id);

    // Remove, with the confirmation's warning.
    await page.locator("tbody tr", { hasText: id }).click();
    const panel2 = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(page).toHaveURL(/case=\d+/);
    const caseUrl = page.url();
    await panel2.getByRole("button", { name: "Remove", exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Scores of earlier benches stay");
    await expect(dialog).toContainText("the check messages that quote them");
    await dialog.getByRole("button", { name: "Remove case" }).click();
    await expect(page.getByText(`Removed ${id}`)).toBeVisible();
    await expect(page.locator("tbody tr", { hasText: id })).toHaveCount(0);

    // An old link to the removed case says so.
    await page.goto(caseUrl);
    await expect(page.getByText(`Case ${id} was removed`)).toBeVisible();
    await expect(page.getByText(/Scores of earlier benches that used it remain/)).toBeVisible();
  });

  test("a case missing a prompt variable says so, and the variable can be set at once", async ({ page }) => {
    const id = `e2e-vars-${Date.now()}`;
    await page.goto(`${LIB}?new=1`);
    const add = page.getByRole("complementary", { name: "Add case" });
    await add.getByLabel("Target prompt").selectOption({ label: "support-agent" });
    await expect(add.getByText("The prompt fills {{shop_name}}")).toBeVisible();
    await add.getByLabel("Input").fill("Do you ship to Canada?");
    await add.getByLabel("Expected result").fill("Yes, for 15 USD.");
    await add.getByLabel("Case ID (optional)").fill(id);
    await add.getByRole("button", { name: "Add case" }).click();
    const panel = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panel.getByTestId("missing-variables")).toContainText("{{shop_name}}");
    await panel.getByRole("button", { name: "Add it to Variables" }).click();
    await panel.getByLabel("Variables 1 value").fill("Northwind Goods");
    await panel.getByRole("button", { name: "Save for future benches" }).click();
    await expect(page.getByRole("complementary", { name: `Edit case ${id}` }).getByText("Revision 2 (current)")).toBeVisible();
    await expect(page.getByTestId("missing-variables")).toHaveCount(0);
  });

  test("bad input: empty fields, a duplicate case ID, a dataset case cannot be removed", async ({ page }) => {
    await addCase(page, { prompt: "support-agent", input: "   ", expected: "" });
    const add = page.getByRole("complementary", { name: "Add case" });
    await expect(add.getByText("Input is required.", { exact: true })).toBeVisible();
    await expect(add.getByText("Expected result is required.", { exact: true })).toBeVisible();

    await addCase(page, { prompt: "intent-router", input: "Where is my card?", expected: "card_arrival", caseId: "banking77-001" });
    await expect(page.getByRole("complementary", { name: "Add case" }).getByRole("alert")).toContainText(
      'Case ID "banking77-001" is already used by a case of prompt "intent-router" in "Customer support"',
    );

    await addCase(page, { input: "x", expected: "y" });
    await expect(page.getByRole("complementary", { name: "Add case" }).getByText("Choose the target prompt.").first()).toBeVisible();

    await page.goto(`${LIB}?q=banking77`);
    await page.goto(LIB + "?prompt=intent-router");
    await page.locator("tbody tr").first().click();
    const panel = page.getByRole("complementary", { name: /Edit case banking77-/ });
    await expect(panel.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect(panel.getByRole("button", { name: "Remove", exact: true })).toHaveCount(0);
  });

  test("a save against a stale revision is refused and keeps the typed text", async ({ page, browser }) => {
    const id = `e2e-stale-${Date.now()}`;
    await addCase(page, { prompt: "support-agent", input: "Original question", expected: "Original answer", caseId: id });
    const panelA = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panelA).toBeVisible();
    const url = page.url();

    const other = await browser.newPage();
    await other.goto(url);
    // Type only once the panel is hydrated: React's hydration resets the field's text and caret, and
    // a fill just before it saved "Edited in tab BOriginal question" (seen once in a fresh clone's
    // run on a busy machine; every time with Chromium's CPU throttled 20×). "networkidle" came first;
    // the panel's heading takes focus in its effect, which runs once the panel has hydrated.
    const panelB = other.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panelB.getByRole("heading", { name: id })).toBeFocused();
    await panelB.getByLabel("Input").fill("Edited in tab B");
    await panelB.getByRole("button", { name: "Save for future benches" }).click();
    await expect(panelB.getByText("Revision 2 (current)")).toBeVisible();
    await other.close();

    await panelA.getByLabel("Input").fill("Edited in tab A");
    await panelA.getByRole("button", { name: "Save for future benches" }).click();
    await expect(panelA.getByRole("alert")).toContainText("was changed while you edited it");
    await expect(panelA.getByRole("alert")).toContainText("revision 1");
    await expect(panelA.getByLabel("Input")).toHaveValue("Edited in tab A");
    await panelA.getByRole("button", { name: "Discard my edits and load the latest revision" }).click();
    await expect(page.getByRole("complementary", { name: `Edit case ${id}` }).getByLabel("Input")).toHaveValue("Edited in tab B");
  });
});

test.describe("Test library: criteria", () => {
  test("add, edit and pause a criterion", async ({ page }) => {
    const rule = `Greets the customer by name ${Date.now()}`;
    await page.goto(`${LIB}/criteria?prompt=support-agent`);
    await expect(page.getByRole("tab", { name: "Criteria" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("States the return window in days")).toBeVisible();
    await page.getByRole("link", { name: "Add criterion" }).click();
    const add = page.getByRole("complementary", { name: /Add criterion/ });
    await add.getByRole("button", { name: "Add criterion" }).click();
    await expect(add.getByText("Rule is required.", { exact: true })).toBeVisible();
    // A rule the rubric already judges is refused, on the Rule field.
    await add.getByLabel("Rule").fill("states the return window in days");
    await add.getByLabel("What passes").fill("Says 30 days.");
    await add.getByLabel("What fails").fill("No number.");
    await add.getByRole("button", { name: "Add criterion" }).click();
    await expect(add.getByText(/already has this rule, so the rubric would judge it twice/).first()).toBeVisible();
    await add.getByLabel("Rule").fill(rule);
    await add.getByLabel("What passes").fill("The reply uses the customer's name.");
    await add.getByLabel("What fails").fill("No name is used.");
    await add.getByLabel("secondary").check();
    await add.getByRole("button", { name: "Add criterion" }).click();
    const row = page.getByTestId("criterion-row").filter({ hasText: rule });
    await expect(row).toContainText("secondary");
    await expect(row).toContainText("custom");
    await expect(row).toContainText("active");

    await row.getByRole("link", { name: `Edit criterion: ${rule}` }).click();
    const edit = page.getByRole("complementary", { name: "Edit criterion" });
    await edit.getByLabel("What fails").fill("The reply never uses the customer's name.");
    await edit.getByLabel("primary").check();
    await edit.getByRole("button", { name: "Save new revision" }).click();
    await expect(edit.getByText("Revision 2 (current)")).toBeVisible();
    await expect(page.getByTestId("criterion-row").filter({ hasText: rule })).toContainText("rev 2");
    await expect(page.getByTestId("criterion-row").filter({ hasText: rule })).toContainText("primary");
    await edit.getByRole("button", { name: "Revision 1" }).click();
    await expect(edit.getByLabel("What fails")).toHaveValue("No name is used.");

    await page.getByRole("button", { name: `Pause criterion: ${rule}` }).click();
    await expect(page.getByTestId("criterion-row").filter({ hasText: rule })).toContainText("paused");
    await page.getByRole("button", { name: `Resume criterion: ${rule}` }).click();
    await expect(page.getByTestId("criterion-row").filter({ hasText: rule })).toContainText("active");
  });

  test("generated criteria are read-only and Customize makes an editable copy", async ({ page }) => {
    await page.goto(`${LIB}/criteria?prompt=support-agent`);
    const generated = page.getByRole("region", { name: /Generated criteria/ });
    const row = generated.getByTestId("criterion-row").filter({ hasText: "Keeps the reply under 80 words" });
    await expect(row.getByRole("link", { name: /^Edit/ })).toHaveCount(0);
    await row.getByRole("button", { name: /Customize/ }).click();
    const edit = page.getByRole("complementary", { name: "Edit criterion" });
    await expect(edit.getByLabel("Rule")).toHaveValue("Keeps the reply under 80 words");
    await edit.getByLabel("Rule").fill("Keeps the reply under 60 words");
    await edit.getByRole("button", { name: "Save new revision" }).click();
    const custom = page.getByRole("region", { name: /Custom criteria/ });
    await expect(custom.getByTestId("criterion-row").filter({ hasText: "Keeps the reply under 60 words" })).toBeVisible();
    await expect(generated.getByTestId("criterion-row").filter({ hasText: "Keeps the reply under 80 words" })).toContainText("paused");
  });

  test("a prompt without generated criteria says so", async ({ page }) => {
    await page.goto(`${LIB}/criteria?prompt=intent-router`);
    await expect(page.getByText("No generated criteria for intent-router yet")).toBeVisible();
  });
});
