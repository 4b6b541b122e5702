import { expect, test, type Page } from "./fixtures/test";

// playwright.config.ts chose the port and left it in the environment the workers inherit.
if (!process.env.E2E_MODEL_PORT) throw new Error("E2E_MODEL_PORT is not set: run the e2e tests with `npx playwright test` (its config picks the ports)");
const MODEL_URL = `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/v1`;
const CRITERION = "Looks up the order before deciding a refund";
/** The first criterion of each trial: the judge cannot observe it on these cases (unscored). */
const WINDOW = "States the return window in days";

/** Waits until the review's key listener is attached (keys pressed before hydration would be lost). */
const keysReady = (page: Page) => expect(page.locator("[data-keys-ready]")).toHaveCount(1);

async function addScriptedModel(page: Page, name: string) {
  await page.goto("/models");
  if (await page.getByTestId("model-row").filter({ hasText: name }).count()) return;
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model ID").fill("scripted-1");
  await form.getByLabel("Base URL").fill(MODEL_URL);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("model-row").filter({ hasText: name })).toBeVisible();
}

/** A live bench of the scripted model over the three `orders` cases, judged by the scripted model; returns its URL. */
async function liveBench(page: Page, repeats: number): Promise<string> {
  await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByRole("button", { name: "Add model candidate" }).click();
  await form.getByLabel("Candidate 1 model").selectOption({ label: "Scripted e2e model (openai-compatible scripted-1)" });
  await form.getByLabel("Case selection").selectOption("tag");
  await form.getByLabel("Tag").selectOption("orders");
  await form.getByLabel("Trials per case").fill(String(repeats));
  await form.getByLabel("Judge model for criteria").selectOption({ label: "Scripted e2e model" });
  await form.getByRole("button", { name: "Plan" }).click();
  await expect(page.getByRole("region", { name: "Plan" }).getByTestId("manifest-row")).toHaveCount(3);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/benches\/\d+$/);
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^(finished|cancelled)$/)).toBeVisible({ timeout: 60_000 });
  return new URL(page.url()).pathname;
}

test("review trials with the keyboard, calibration, an advisory criterion that does not block, and a corrected expected result", async ({ page }) => {
  await addScriptedModel(page, "Scripted e2e model");
  await liveBench(page, 4); // 3 cases × 4 trials

  // Not yet calibrated: every criterion is advisory at launch, and the page says why.
  const advisory = page.getByRole("note", { name: "Advisory criteria" });
  await expect(advisory.getByTestId("advisory-criterion").filter({ hasText: CRITERION })).toContainText("judge not calibrated: 0 of 20 reviewed trials needed");

  // Review ten trials from the keyboard: p on the first criterion, j to the next trial.
  await page.getByRole("link", { name: "Review", exact: true }).click();
  await expect(page).toHaveURL(/\/review\?filter=unreviewed&trial=\d+$/);
  await page.getByRole("link", { name: "All", exact: true }).click();
  // "1 of 12" holds on Not yet reviewed too: wait for All to be on screen before pressing keys.
  await expect(page).toHaveURL(/filter=all&trial=\d+$/);
  await expect(page.getByTestId("review-position")).toHaveText("1 of 12");
  const calibration = page.getByTestId("calibration-row").filter({ hasText: CRITERION });
  for (let i = 1; i <= 10; i++) {
    await expect(page.getByTestId("review-position")).toHaveText(`${i} of 12`);
    const windowRow = page.getByTestId("review-criterion").filter({ hasText: WINDOW });
    const criterion = page.getByTestId("review-criterion").filter({ hasText: CRITERION });
    await expect(windowRow.getByTestId("judge-verdict")).toContainText("unscored");
    await expect(criterion.getByTestId("judge-verdict")).toContainText("passed");
    // p gives the selected (first) criterion its verdict and selects the next one.
    await keysReady(page);
    await page.keyboard.press("p");
    await expect(windowRow).toContainText("human verdict: pass");
    await page.keyboard.press("p");
    await expect(criterion).toContainText("human verdict: pass");
    // Agreement updates with each verdict.
    await expect(calibration.getByTestId("calibration-reviewed")).toHaveText(String(i));
    await expect(calibration.getByTestId("calibration-agreement")).toContainText(`100% (${i}/${i};`);
    if (i < 10) await page.keyboard.press("j");
  }
  // k goes back; a note typed after n does not trigger the keys.
  await keysReady(page);
  await page.keyboard.press("k");
  await expect(page.getByTestId("review-position")).toHaveText("9 of 12");
  await keysReady(page);
  await page.keyboard.press("n");
  await page.keyboard.type("fine, judged right");
  await expect(page.getByTestId("review-position")).toHaveText("9 of 12");
  // n opened the note of the selected criterion (the first); Escape leaves the field, p saves the verdict with the note.
  await expect(page.getByLabel(`Note on ${WINDOW}`)).toHaveValue("fine, judged right");
  await page.keyboard.press("Escape");
  await page.keyboard.press("p");
  await expect(page.getByRole("status").filter({ hasText: "Saved: pass on" })).toBeVisible();

  // Blind calibration sample: the judge's verdicts are hidden by default.
  await page.getByRole("link", { name: "Calibration sample" }).click();
  await expect(page.getByTestId("judge-hidden").first()).toBeVisible();
  await expect(page.getByTestId("judge-verdict")).toHaveCount(0);
  // Nor can the calibration figures give them away: agreement moving after a verdict would tell
  // whether the judge agreed, so the table waits until the judge's verdicts are shown.
  await expect(page.getByTestId("calibration-row")).toHaveCount(0);
  await expect(page.getByTestId("calibration-hidden")).toContainText("hidden during blind review");
  await page.getByRole("link", { name: "Show the judge's verdicts" }).click();
  await expect(page.getByTestId("calibration-row").filter({ hasText: CRITERION })).toBeVisible();
  await expect(page.getByTestId("judge-verdict").first()).toBeVisible();

  // A second bench is compared with the first. A reviewer fails the return-window criterion on a
  // trial whose case passed it in the first bench (by human verdicts): a regression on an
  // uncalibrated (advisory) criterion, shown but not blocking.
  const second = await liveBench(page, 1);
  await page.goto(`${second}/review?filter=all`);
  await keysReady(page);
  await page.keyboard.press("f");
  await expect(page.getByTestId("review-criterion").filter({ hasText: WINDOW })).toContainText("human verdict: fail");
  await page.goto(second);
  await expect(page.getByRole("note", { name: "Advisory criteria" })).toContainText(`${WINDOW} — judge not calibrated: 0 of 20 reviewed trials needed`);
  await expect(page.getByRole("region", { name: "Recommendation" })).toContainText(
    "It breaks 1 check of advisory criteria (their judge is not calibrated), which does not block.",
  );
  await expect(page.getByRole("region", { name: "Recommendation" })).not.toContainText(/not recommended: \d+ regression/);
  // The trial on the results page marks the human verdict beside the judge's.
  await page.getByRole("link", { name: /Open trial of support-refund-delivered/ }).click();
  await expect(page.getByRole("region", { name: "Human verdicts" }).getByTestId("human-verdict")).toContainText(
    `human verdict: fail on ${WINDOW} (judge: unscored)`,
  );
  await expect(page.getByRole("complementary", { name: "Trial" }).getByRole("note")).toContainText(
    "(advisory: its judge is not calibrated, so it does not block)",
  );

  // Correct the expected result from the reviewed trial: a new case revision for future benches.
  await page.goto(`${second}/review?filter=all`);
  const fix = page.getByRole("region", { name: "Correct the expected result" });
  await expect(fix.getByTestId("case-revision")).toHaveText("1");
  await fix.getByRole("button", { name: "Correct the expected result" }).click();
  await fix.getByLabel("Expected result").fill("Looks up the order, then starts the refund.");
  await fix.getByRole("button", { name: "Save as a new revision" }).click();
  await expect(fix.getByRole("status")).toContainText("Saved as revision 2 of");
  await expect(fix.getByTestId("case-revision")).toHaveText("2");
  // The bench keeps the expected result it ran with.
  await expect(page.getByRole("region", { name: "Expected result (as the bench pinned it)" })).not.toContainText("then starts the refund");
});

test("Not yet reviewed (the default): j after reviewing a trial goes to the very next one, none is skipped", async ({ page }) => {
  await addScriptedModel(page, "Scripted e2e model");
  const bench = await liveBench(page, 1); // 3 cases × 1 trial, none reviewed
  const shown = async () => Number((await page.locator("main").innerText()).match(/Trial #(\d+)/)![1]);
  // The order of the walk, from the All filter.
  await page.goto(`${bench}/review?filter=all`);
  const order: number[] = [];
  for (let i = 1; i <= 3; i++) {
    await expect(page.getByTestId("review-position")).toHaveText(`${i} of 3`);
    order.push(await shown());
    await keysReady(page);
    if (i < 3) await page.keyboard.press("j");
  }
  // The default filter, as the bench page's Review link opens it (no trial in the URL).
  await page.goto(`${bench}/review`);
  await expect(page.getByTestId("review-position")).toHaveText("1 of 3");
  expect(await shown()).toBe(order[0]);
  const criteria = page.getByTestId("review-criterion");
  const count = await criteria.count();
  await keysReady(page);
  for (let c = 0; c < count; c++) {
    await page.keyboard.press("p");
    await expect(criteria.nth(c)).toContainText("human verdict: pass");
  }
  await keysReady(page);
  await page.keyboard.press("j");
  await expect(page).toHaveURL(new RegExp(`trial=${order[1]}\\b`));
  expect(await shown()).toBe(order[1]);
});
