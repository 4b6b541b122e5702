import { expect, test, type Page } from "./fixtures/test";

// Prompts (issue 15): edit the support agent's system prompt, see the diff, bench r1 vs r2 on the
// scripted model server (e2e/fixtures/model-scripts/e2e.json answers r2 — which checks the refunds
// policy first — with both tool calls, r1 with get_order only) and get r2 recommended.
const MODEL_URL = `http://127.0.0.1:${process.env.E2E_MODEL_PORT ?? 4010}/v1`;
const MODEL = "Scripted prompt model";
const ADDED = " Check the refunds policy with lookup_policy before deciding any refund.";

async function addScriptedModel(page: Page) {
  await page.goto("/models");
  if (await page.getByTestId("model-row").filter({ hasText: MODEL }).count()) return;
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(MODEL);
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model ID").fill("scripted-1");
  await form.getByLabel("Base URL").fill(MODEL_URL);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("model-row").filter({ hasText: MODEL })).toBeVisible();
}

test("a prompt change: edit with a message, missing variables before saving, stale-save conflict, diff, bench r1 vs r2", async ({
  page,
  context,
}, testInfo) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await addScriptedModel(page);

  // The Prompt page: template with its variable highlighted, settings, tools, history.
  await page.goto("/systems/customer-support/library");
  await page.getByRole("navigation", { name: "System sections" }).getByRole("link", { name: "Prompts" }).click();
  await expect(page).toHaveURL(/\/systems\/customer-support\/prompts$/);
  // Exact: case IDs elsewhere on a page may contain the prompt's name (generated cases do).
  await page.getByRole("link", { name: "support-agent", exact: true }).click();
  await expect(page.getByTestId("prompt-template").locator("mark")).toHaveText(["{{shop_name}}"]);
  await expect(page.getByTestId("prompt-variables")).toContainText("shop_name");
  await expect(page.getByTestId("prompt-settings")).toContainText(/Max output tokens\s*400/);
  await expect(page.getByTestId("prompt-tools")).toContainText("lookup_policy");
  await expect(page.getByTestId("revision-row")).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("prompt-page.png"), fullPage: true });

  // A second tab opens the editor on r1 too (the stale save below).
  const other = await context.newPage();
  await other.goto("/systems/customer-support/prompts/support-agent/edit");

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page).toHaveURL(/\/prompts\/support-agent\/edit$/);
  const template = page.getByRole("textbox", { name: "System prompt template" });
  const r1 = await template.inputValue();
  // A variable no case defines is listed before saving, with the cases that lack it.
  await template.fill(`${r1} Address {{customer_tier}} members by tier.`);
  await expect(page.getByTestId("edit-variables")).toContainText("customer_tier (new)");
  await page.getByLabel("Why this change").fill("check refunds policy first");
  await page.getByRole("button", { name: "Save r2" }).click();
  const missing = page.getByTestId("missing-variables");
  // Every active case lacks it (8 seeded, more when another spec's bench retained copies).
  await expect(missing).toContainText(/customer_tier \(new in this edit\): \d+ cases — support-return-window, support-return-opened/);
  await page.screenshot({ path: testInfo.outputPath("missing-variables.png"), fullPage: true });
  await missing.getByRole("button", { name: "Keep editing" }).click();
  await template.fill(r1 + ADDED);
  await template.press("Control+Enter");
  // Cases other specs added to this prompt may lack shop_name (r1 needs it too): then the editor
  // lists them before saving, and saving anyway is the user's answer.
  const missingOrSaved = page.getByTestId("missing-variables").or(page.getByTestId("template-diff"));
  await expect(missingOrSaved.first()).toBeVisible();
  const saveAnyway = page.getByTestId("missing-variables").getByRole("button", { name: "Save anyway" });
  if (await saveAnyway.isVisible()) await saveAnyway.click();

  // Saved: the diff of r1 → r2 opens, with the added sentence marked.
  await expect(page).toHaveURL(/\/prompts\/support-agent\/diff\?from=1&to=2/);
  await expect(page.getByRole("status").filter({ hasText: "Saved r2" })).toBeVisible();
  await expect(page.getByTestId("template-diff").locator("ins")).toHaveText([ADDED]);
  await expect(page.getByTestId("template-diff").locator("del")).toHaveCount(0);
  await expect(page.getByTestId("current-revision")).toContainText("r2 · check refunds policy first");
  await expect(page.getByTestId("revision-row").first()).toContainText("check refunds policy first");
  await page.screenshot({ path: testInfo.outputPath("diff.png"), fullPage: true });

  // The other tab saves from r1: refused, nothing stored, its text kept.
  await other.getByRole("textbox", { name: "System prompt template" }).fill("Be rude.");
  await other.getByLabel("Why this change").fill("stale edit");
  await other.getByRole("button", { name: "Save r2" }).click();
  await expect(other.getByText('you started from r1, it is now at r2 ("check refunds policy first"). Nothing was saved')).toBeVisible();
  await expect(other.getByRole("textbox", { name: "System prompt template" })).toHaveValue("Be rude.");
  await other.close();
  await page.reload();
  await expect(page.getByTestId("revision-row")).toHaveCount(2);

  // r1 stays readable as it was.
  await page.getByRole("link", { name: "r1", exact: true }).click();
  await expect(page.getByTestId("prompt-template")).toHaveText(r1);

  // Bench the change: previous (baseline) vs current on the same model, the refunds cases.
  await page.getByRole("link", { name: "Bench r2 vs r1" }).click();
  const form = page.locator("form").filter({ hasText: "New bench" });
  for (const i of [1, 2]) await form.getByLabel(`Candidate ${i} model`).selectOption({ label: `${MODEL} (openai-compatible scripted-1)` });
  await expect(form.getByLabel("Candidate 1 prompt revision").locator("option:checked")).toHaveText("r1");
  await expect(form.getByLabel("Candidate 2 prompt revision").locator("option:checked")).toHaveText("current (r2 · check refunds policy first)");
  await expect(form.getByLabel("Baseline").locator("option:checked")).toHaveText(`candidate 1: ${MODEL} · support-agent r1`);
  await form.getByLabel("Case selection").selectOption("tag");
  await form.getByLabel("Tag").selectOption("refunds");
  await form.getByRole("button", { name: "Plan" }).click();
  await expect(page.getByRole("region", { name: "Plan" }).getByTestId("manifest-row")).toHaveCount(2);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^(finished|cancelled)$/)).toHaveText("finished", { timeout: 60_000 });

  const r2 = `${MODEL} · support-agent r2 · check refunds policy first`;
  // "…against the baseline" — or "the baseline or the last bench (#N, …)" when another spec benched this prompt first.
  await expect(page.getByTestId("recommendation")).toContainText(`Recommended: ${r2} (100.0% of 4 scored checks), with no regression against the baseline`);
  await expect(
    page
      .getByTestId("candidate-row")
      .filter({ hasText: `${MODEL} · support-agent r1` })
      .first(),
  ).toContainText("50.0% (2/4)");
  await page.screenshot({ path: testInfo.outputPath("results.png"), fullPage: true });

  // The trial of r2 shows the prompt it rendered: r2's template, filled.
  await page.getByRole("link", { name: new RegExp(`Open trial of support-refund-delivered by ${r2.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) }).click();
  const trial = page.getByRole("complementary", { name: "Trial" });
  await expect(trial).toContainText(r2);
  await expect(trial).toContainText("You are the support assistant of Northwind Goods.");
  await expect(trial).toContainText(ADDED.trim());
  await expect(trial.getByTestId("check-result").filter({ hasText: "Uses the expected tools" })).toContainText("passed");

  // Bringing back r1 opens the editor with r1's fields, based on the current r2.
  await page.goto("/systems/customer-support/prompts/support-agent/r/1");
  await page.getByRole("link", { name: "Bring back r1 (edit from it)" }).click();
  await expect(page.getByRole("textbox", { name: "System prompt template" })).toHaveValue(r1);
  await expect(page.getByText("Saving makes r3, a new revision based on r2, with the fields of r1.")).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test("a huge edit is refused on the form, the editor and its text stay (a server action's body is capped at 1 MB)", async ({ page }) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto("/systems/customer-support/prompts/intent-router/edit");
  const template = page.getByRole("textbox", { name: "System prompt template" });
  const r = await template.inputValue();
  // A pasted 2 MB document: over the template's limit and over the action's body limit.
  const huge = "Few-shot example. ".repeat(120_000);
  await template.fill(huge);
  await page.getByLabel("Why this change").fill("paste the whole handbook");
  await page.getByRole("button", { name: /^Save r\d+$/ }).click();
  await expect(page.getByText("The system prompt is too long: the limit is 100,000 characters.")).toBeVisible();
  await expect(template).toHaveValue(huge);

  // Within every field's limit yet over 1 MB as sent (non-ASCII tools): refused with a message, text kept.
  await template.fill(r);
  const tools = JSON.stringify([{ name: "lookup", description: "€".repeat(400_000), inputSchema: { type: "object", properties: {} } }]);
  await page.getByRole("textbox", { name: "Tools (JSON)" }).fill(tools);
  await page.getByRole("button", { name: /^Save r\d+$/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was saved" })).toContainText("too large");
  await expect(page.getByRole("textbox", { name: "Tools (JSON)" })).toHaveValue(tools);
  expect(pageErrors).toEqual([]);
});

test("the Prompt page lists and edits the prompt's default checks", async ({ page }) => {
  await page.goto("/systems/customer-support/prompts/intent-router");
  const checks = page.getByRole("region", { name: "Default checks of intent-router" });
  await expect(checks).toContainText("No evaluators");
  await checks.getByLabel("Evaluator kind to add").selectOption({ label: "Exact match" });
  await checks.getByRole("button", { name: "Add evaluator" }).click();
  await checks.getByRole("button", { name: "Save default checks" }).click();
  await expect(page.getByText("Saved the default checks of intent-router").first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Default checks of intent-router" })).not.toContainText("No evaluators");
  // The same list as the Criteria tab's editor.
  await page.goto("/systems/customer-support/library/criteria?prompt=intent-router");
  await expect(page.getByRole("region", { name: "Default checks of intent-router" })).not.toContainText("No evaluators");
});
