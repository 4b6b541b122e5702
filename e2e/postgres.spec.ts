import { expect, test } from "@playwright/test";

// The "postgres" project only (playwright.config.ts): the app on a PostgreSQL store plans a bench,
// but launching is refused with the reason until the bench worker runs there (issue #20).
test("on PostgreSQL, New bench plans from the library but a launch is refused with the reason, and nothing is stored", async ({ page }) => {
  await page.goto("/systems/grade-school-math/benches/new");
  // Said before the form is filled in, not only after Launch.
  await expect(page.getByRole("status").filter({ hasText: "Benches do not run on PostgreSQL yet" })).toBeVisible();
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByLabel("Candidate 1 recorded output").selectOption("model-6b-finetuning");
  await form.getByLabel("Candidate 2 recorded output").selectOption("model-175b-verification");
  await form.getByRole("button", { name: "Plan" }).click();
  const plan = page.getByRole("region", { name: "Plan" });
  await expect(plan.getByTestId("manifest-row")).toHaveCount(200);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Benches do not run on PostgreSQL yet" })).toBeVisible();
  await expect(page).toHaveURL(/\/benches\/new$/);
  await page.goto("/systems/grade-school-math/benches");
  await expect(page.getByTestId("bench-row")).toHaveCount(0);
});
