import { expect, test } from "@playwright/test";

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
});
