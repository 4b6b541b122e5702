import { expect, test } from "./fixtures/test";

// The "postgres" project only (playwright.config.ts): the app on a PostgreSQL store runs benches
// through pg-boss with the server's own job worker (issue #20).
test("on PostgreSQL, the GSM8K bench launched from New bench runs to finished and shows its headline", async ({ page }) => {
  await page.goto("/systems/grade-school-math/benches/new");
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByLabel("Candidate 1 recorded output").selectOption("model-6b-finetuning");
  await form.getByLabel("Candidate 2 recorded output").selectOption("model-175b-verification");
  await form.getByRole("button", { name: "Plan" }).click();
  const plan = page.getByRole("region", { name: "Plan" });
  await expect(plan.getByTestId("manifest-row")).toHaveCount(200);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/benches\/\d+$/);
  await expect(page.getByTestId("progress-count")).toContainText("/ 400 trials");
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  const rows = page.getByTestId("candidate-row");
  await expect(rows.filter({ hasText: "model-6b-finetuning" })).toContainText("22.5% (45/200)");
  await expect(rows.filter({ hasText: "model-175b-verification" })).toContainText("55.0% (110/200)");
  await expect(page.getByTestId("evidence-headline")).toHaveText(
    "model-175b-verification beats model-6b-finetuning by +32.5 points (95 % CI +25.3 to +39.7, p < 0.001, 200 paired cases); 5 regressions block it (5 confirmed by deterministic replay)",
  );
  await page.goto("/systems/grade-school-math/benches");
  await expect(page.getByTestId("bench-row")).toHaveCount(1);
});
