import { expect, test } from "./fixtures/test";

// playwright.config.ts chose the port and left it in the environment the workers inherit.
if (!process.env.E2E_MODEL_PORT) throw new Error("E2E_MODEL_PORT is not set: run the e2e tests with `npx playwright test` (its config picks the ports)");
const MODEL_URL = `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/v1`;

// Issue #16 §4–5: the spend cap and gate limits set on New bench show on the bench page, and the
// flip table opens a flipped case's trial.
test.describe("Budgets, trade-offs and flips", () => {
  test("spend cap and a latency limit from New bench show on the bench; a flip chip opens its trial", async ({ page }) => {
    await page.goto("/systems/grade-school-math/benches/new");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByLabel("Candidate 1 recorded output").selectOption("model-6b-finetuning");
    await form.getByLabel("Candidate 2 recorded output").selectOption("model-175b-verification");
    await form.getByLabel("Case budget").fill("40");
    // A bad value is refused on the server, naming the field.
    await form.getByLabel("Spend cap (USD)").fill("-1");
    await form.getByRole("button", { name: "Plan" }).click();
    await expect(form.getByText(/The spend cap \(USD\) must be a number greater than 0 and at most 1,000,000/).first()).toBeVisible(); // beside the field and in the form message
    await form.getByLabel("Spend cap (USD)").fill("2.5");
    await form.getByLabel("Max p95 latency increase (%)").fill("20");
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    await expect(page.getByRole("region", { name: "Progress" }).getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });

    // Recorded answers cost nothing: the cap is never reached; latency cannot be measured on them.
    const budget = page.getByTestId("bench-budget");
    await expect(budget).toContainText("Spend cap $2.50 · spent $0.00");
    await expect(budget).toContainText("Gate limits vs baseline: p95 latency at most +20 %");
    const tradeoffs = page.getByRole("region", { name: "Trade-offs vs baseline" });
    await expect(tradeoffs.getByTestId("tradeoff-row")).toContainText("model-175b-verification");
    await expect(tradeoffs.getByTestId("gate-limits")).toHaveText("not measured");

    // The flip table: counts, then a fixed case's chip opens the candidate's trial of that case.
    const flips = page.getByRole("region", { name: "Flip table" });
    await expect(flips.getByTestId("flip-candidate")).toContainText(/\d+ regressed · [1-9]\d* fixed · 0 flaky on baseline · of 40 paired cases/);
    const chip = flips.getByTestId("flip-fixed").getByTestId("flip-chip").first();
    const title = (await chip.getAttribute("title"))!;
    expect(title).toMatch(/^\S+: baseline 0\/1 → candidate 1\/1 trials passed$/);
    const caseKey = title.split(":")[0];
    await chip.click();
    await expect(page).toHaveURL(/trial=\d+/);
    const trial = page.getByRole("complementary", { name: "Trial" });
    await expect(trial).toContainText(caseKey);
    await expect(trial).toContainText("passed");
  });

  test("a running bench's spend line follows the run without a reload (it said 'spent $0.00' beside done trials)", async ({ page }) => {
    // A priced scripted model that answers the router's first 3 calls and holds the next (e2e.json:
    // priced-router-first-3, priced-router-held): with concurrency 1 the bench stays running with 3
    // paid trials done for as long as the test takes.
    await page.goto("/models");
    await page.getByRole("button", { name: "Add model" }).first().click();
    const model = page.getByRole("complementary", { name: "Add model" });
    await model.getByLabel("Name").fill("Priced scripted model");
    await model.getByLabel("Provider").selectOption("openai-compatible");
    await model.getByLabel("Model ID").fill("scripted-priced");
    await model.getByLabel("Base URL").fill(MODEL_URL);
    await model.getByLabel("Input price").fill("1000");
    await model.getByLabel("Output price").fill("1000");
    await model.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByTestId("model-row").filter({ hasText: "Priced scripted model" })).toBeVisible();

    await page.goto("/systems/customer-support/benches/new?prompt=intent-router");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Candidate 1 model").selectOption({ label: "Priced scripted model (openai-compatible scripted-priced)" });
    await form.getByLabel("Concurrency").fill("1");
    await form.getByLabel("Timeout (s)").fill("600"); // the held trial must not time out while the test runs
    await form.getByLabel("Spend cap (USD)").fill("1000");
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    const progress = page.getByRole("region", { name: "Progress" });
    await expect(page.getByTestId("progress-count")).toContainText(/^3 \/ 154 trials/, { timeout: 20_000 });
    // Still running, never reloaded: the line says what the 3 answered trials cost.
    await expect(progress.getByText("running", { exact: true })).toBeVisible();
    const budget = page.getByTestId("bench-budget");
    await expect(budget).toContainText(/spent \$(?!0\.00\b)\d+\.\d\d/);
    await expect(budget).toContainText("Spend cap $1,000.00");
    // Stop it: the held trial aborts, the unrun ones are skipped; the results follow without a reload.
    await progress.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel bench" }).click();
    await expect(progress.getByText("cancelled", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("candidate-row")).toContainText("3 / 0 / 151");
  });
});
