import { expect, test, type Page } from "./fixtures/test";

// playwright.config.ts chose the port and left it in the environment the workers inherit.
if (!process.env.E2E_MODEL_PORT) throw new Error("E2E_MODEL_PORT is not set: run the e2e tests with `npx playwright test` (its config picks the ports)");
const MODEL_URL = `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/v1`;

async function waitFinished(page: Page) {
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^(finished|cancelled)$/)).toBeVisible({ timeout: 60_000 });
}

async function addScriptedModel(page: Page, name: string, url = MODEL_URL) {
  await page.goto("/models");
  if (await page.getByTestId("model-row").filter({ hasText: name }).count()) return;
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model ID").fill("scripted-1");
  await form.getByLabel("Base URL").fill(url);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("model-row").filter({ hasText: name })).toBeVisible();
}

test.describe("Benches", () => {
  test("the demo GSM8K bench on recorded solutions: plan, launch, progress, recommendation, a failing trial", async ({ page }) => {
    await page.goto("/systems/grade-school-math/benches");
    await page.getByRole("link", { name: "New bench" }).click();
    const form = page.locator("form").filter({ hasText: "New bench" });
    // Two recorded candidates are proposed; make the 6B finetuned model the baseline (candidate 1).
    await form.getByLabel("Candidate 1 recorded output").selectOption("model-6b-finetuning");
    await form.getByLabel("Candidate 2 recorded output").selectOption("model-175b-verification");
    // Removing a candidate from the keyboard keeps focus in the list (it fell to the page).
    await form.getByRole("button", { name: "Add recorded candidate" }).click();
    await form.getByRole("button", { name: "Remove candidate 3" }).focus();
    await page.keyboard.press("Enter");
    await expect(form.getByLabel("Candidate 3 recorded output")).toHaveCount(0);
    await expect(form.getByRole("button", { name: "Remove candidate 2" })).toBeFocused();
    await form.getByRole("button", { name: "Plan" }).click();
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(plan).toContainText("Cases included");
    await expect(plan.getByTestId("manifest-row")).toHaveCount(200);
    await expect(plan).toContainText("400"); // trials
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    await expect(page.getByTestId("progress-count")).toContainText("/ 400 trials");
    await waitFinished(page);

    const rows = page.getByTestId("candidate-row");
    await expect(rows.filter({ hasText: "model-6b-finetuning" })).toContainText("22.5% (45/200)");
    await expect(rows.filter({ hasText: "model-175b-verification" })).toContainText("55.0% (110/200)");
    // The evidence (issue #16): the sentence above the recommendation, Wilson intervals, the charts.
    // b = 5, c = 70 of 200 paired cases: Δ = +32.5 points, SE = √(75 − 65²/200)/200 → 95 % CI +25.3 to +39.7.
    await expect(page.getByTestId("evidence-headline")).toHaveText(
      "model-175b-verification beats model-6b-finetuning by +32.5 points (95 % CI +25.3 to +39.7, p < 0.001, 200 paired cases); 5 regressions block it (5 confirmed by deterministic replay)",
    );
    // Wilson 45/200 = (0.1726, 0.2877), 110/200 = (0.4808, 0.6174) (the score-interval formula, z = 1.959964).
    await expect(rows.filter({ hasText: "model-6b-finetuning" }).getByTestId("case-pass-rate")).toContainText("22.5 % (95 % CI 17.3–28.8)");
    await expect(rows.filter({ hasText: "model-175b-verification" }).getByTestId("case-pass-rate")).toContainText("55.0 % (95 % CI 48.1–61.7)");
    await expect(page.getByText("Pass rate means a case passes when all its scored checks pass")).toBeVisible();
    const charts = page.getByRole("region", { name: "Evidence charts" });
    await expect(charts.getByRole("img", { name: /^Case pass rate with 95 % interval: model-6b-finetuning \(baseline\) 22\.5 %/ })).toBeVisible();
    await expect(
      charts.getByRole("img", {
        name: "Difference in case pass rate, points, with 95 % interval: model-175b-verification vs model-6b-finetuning +32.5 (95 % CI +25.3 to +39.7, better)",
      }),
    ).toBeVisible();
    await expect(charts.getByTestId("forest-row")).toHaveCount(1);
    // Every comparison in words, with its p, test and the smallest difference it could detect, also when it is better.
    const comparison = page.getByRole("region", { name: "Comparisons" }).getByTestId("comparison-row");
    await expect(comparison).toHaveCount(1);
    await expect(comparison).toContainText("better");
    await expect(comparison).toContainText("+32.5 points (95 % CI +25.3 to +39.7)");
    await expect(comparison).toContainText("p < 0.001 · exact McNemar");
    await expect(comparison).toContainText(/200\s*≥ \d+ points/);
    // Higher average, but it breaks problems the baseline solved: not recommended.
    await expect(page.getByTestId("recommendation")).toContainText("Keep the baseline model-6b-finetuning");
    await expect(page.getByRole("region", { name: "Recommendation" })).toContainText(/not recommended: \d+ regressions/);
    // Each blocking regression says its status and why: recorded answers on both sides, scored by
    // code, replay the same every time, so they are confirmed at once (no Confirm round is offered).
    const rec = page.getByRole("region", { name: "Recommendation" });
    await rec.getByText("Blocking regressions: 5 checks").click();
    await expect(
      rec
        .locator("li")
        .filter({ hasText: /^gsm8k/ })
        .filter({ hasText: "confirmed · deterministic replay" }),
    ).toHaveCount(5);
    await expect(rec).toContainText("A deterministic replay (a recorded answer against a recorded reference, scored by code) is confirmed without a rerun");
    await expect(rec).not.toContainText("suspected");
    const reruns = page.getByRole("region", { name: "Reruns" });
    await expect(reruns.getByTestId("deterministic-count")).toContainText("5 regressions are deterministic replays: a rerun cannot change them.");
    await expect(reruns.getByRole("button", { name: "Confirm suspected regressions" })).toHaveCount(0);

    await page.getByRole("link", { name: "Regressions only" }).click();
    await expect(page).toHaveURL(/filter=regressions/);
    // The matrix marks the regressed cells as deterministic replays.
    await expect(page.getByRole("link", { name: /by model-175b-verification: failed, regressed \(1 check, deterministic replay\)/ })).toHaveCount(5);
    const failing = page.getByRole("link", { name: /by model-175b-verification: failed/ }).first();
    // A keyboard user can pass the matrix's links in one step.
    await expect(page.getByRole("link", { name: "Skip the matrix" })).toHaveAttribute("href", "#matrix-end");
    // Opened with Enter from the keyboard, the trial panel takes focus (it stayed on the cell).
    await failing.focus();
    await page.keyboard.press("Enter");
    const trial = page.getByRole("complementary", { name: "Trial" });
    await expect(trial).toBeFocused();
    await expect(trial).toContainText("failed");
    await expect(trial).toContainText('The answer after the last "A:"');
    // Escape closes the trial and gives focus back to the cell that opened it (it fell to <body>,
    // and the next Tab went to the top of the page).
    await page.keyboard.press("Escape");
    await expect(trial).toHaveCount(0);
    await expect(page).not.toHaveURL(/trial=/);
    await expect(failing).toBeFocused();
    // So does its ✕, from the keyboard.
    await page.keyboard.press("Enter");
    await expect(trial).toBeFocused();
    await trial.getByRole("link", { name: "Close trial" }).focus();
    await page.keyboard.press("Enter");
    await expect(trial).toHaveCount(0);
    await expect(failing).toBeFocused();

    // History lists it with its pass rates.
    await page.goto("/systems/grade-school-math/benches");
    await expect(page.getByTestId("bench-row").first()).toContainText("55.0% of 200");
  });

  test("compare two benches: pass-rate change, regressions first, filters, a verdict opens its trial", async ({ page }) => {
    /** Launches a GSM8K bench whose first candidate (the baseline, kept when nothing beats it cleanly) is `first`. */
    const launch = async (first: string, second: string) => {
      await page.goto("/systems/grade-school-math/benches/new");
      const form = page.locator("form").filter({ hasText: "New bench" });
      await form.getByLabel("Candidate 1 recorded output").selectOption(first);
      await form.getByLabel("Candidate 2 recorded output").selectOption(second);
      await form.getByRole("button", { name: "Launch" }).click();
      await expect(page).toHaveURL(/\/benches\/\d+$/);
      await waitFinished(page);
      return Number(/\/benches\/(\d+)$/.exec(page.url())![1]);
    };
    const a = await launch("model-6b-finetuning", "model-175b-verification");
    const b = await launch("model-175b-verification", "model-6b-finetuning");
    await page.goto("/systems/grade-school-math/benches");
    await page.getByRole("checkbox", { name: `Pick bench #${a} to compare` }).check();
    await page.getByRole("checkbox", { name: `Pick bench #${b} to compare` }).check();
    await page.getByRole("button", { name: "Compare 2/2" }).click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?a=${a}&b=${b}`));

    // Each bench's kept baseline: the 6B model in #a, the 175B model in #b — and the page says so.
    await expect(page.getByRole("note").filter({ hasText: "two different candidates" })).toContainText(
      `model-6b-finetuning in #${a} and model-175b-verification in #${b}`,
    );
    const summary = page.getByTestId("compare-summary");
    await expect(summary).toContainText("Pass rate 22.5% → 55.0% (+32.5 points)");
    const text = await summary.innerText();
    const [regressed, fixed, changed, same] = [/(\d+) regressed/, /(\d+) fixed/, /(\d+) other changes/, /(\d+) unchanged/].map((r) => Number(r.exec(text)![1]));
    // 45 solved before, 110 after: fixes minus regressions is the difference; every case is counted once.
    expect(fixed - regressed).toBe(110 - 45);
    expect(regressed).toBeGreaterThan(0);
    expect(regressed + fixed + changed + same).toBe(200);
    const rows = page.getByTestId("compare-row");
    await expect(rows.first()).toContainText("regressed");

    await page.getByRole("navigation", { name: "Show" }).getByRole("link", { name: "Fixed" }).click();
    await expect(page).toHaveURL(/show=fixed/);
    await expect(rows).toHaveCount(Math.min(100, fixed));
    for (const r of await rows.all()) await expect(r).toContainText("fixed");

    await page.getByRole("navigation", { name: "Show" }).getByRole("link", { name: "Regressed" }).click();
    await expect(rows).toHaveCount(regressed);
    await rows
      .first()
      .getByRole("link", { name: new RegExp(`in bench #${b}: failed`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/benches/${b}\\?trial=\\d+#trial$`));
    await expect(page.getByRole("complementary", { name: "Trial" })).toContainText("failed");
    await expect(page.getByRole("complementary", { name: "Trial" })).toBeInViewport();
  });

  test("a live bench over HTTP to a scripted model with tool calls and a judge", async ({ page }) => {
    await addScriptedModel(page, "Scripted e2e model");
    const row = page.getByTestId("model-row").filter({ hasText: "Scripted e2e model" });
    await row.getByRole("button", { name: "Test connection" }).click();
    await expect(row).toContainText("Answered “OK”");

    await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Candidate 1 model").selectOption({ label: "Scripted e2e model (openai-compatible scripted-1)" });
    await form.getByLabel("Case selection").selectOption("tag");
    await form.getByLabel("Tag").selectOption("orders");
    await form.getByLabel("Judge model for criteria").selectOption({ label: "Scripted e2e model" });
    await form.getByRole("button", { name: "Plan" }).click();
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(plan.getByTestId("manifest-row")).toHaveCount(3);
    await form.getByRole("button", { name: "Launch" }).click();
    await waitFinished(page);

    await expect(page.getByTestId("candidate-row")).toContainText("3 / 0 / 0");
    // The judge's own calls are counted apart from the candidate's (this model has no prices).
    await expect(page.getByTestId("candidate-row")).toContainText(/judge: [1-9][\d,]* \/ [1-9][\d,]*/);
    await expect(page.getByTestId("candidate-row")).toContainText("judge: no prices set");
    await page.getByRole("link", { name: /Open trial of support-refund-delivered/ }).click();
    const trial = page.getByRole("complementary", { name: "Trial" });
    await expect(trial).toContainText("→ get_order");
    await expect(trial).toContainText('"orderId":"order_123"');
    await expect(trial).toContainText('"eligible":true');
    await expect(trial).toContainText("started a refund to your original payment method");
    // The case expects lookup_policy too; the scripted model only looked up the order.
    await expect(trial.getByTestId("check-result").filter({ hasText: "Uses the expected tools" })).toContainText("failed");
    await expect(trial.getByTestId("check-result").filter({ hasText: "Uses the expected tools" })).toContainText("not called: lookup_policy");
    await expect(trial.getByTestId("check-result").filter({ hasText: "Output is not empty" })).toContainText("passed");
    await expect(trial.getByTestId("check-result").filter({ hasText: "Looks up the order before deciding a refund" })).toContainText("passed");
    await expect(trial.getByTestId("check-result").filter({ hasText: "States the return window in days" })).toContainText("unscored");
  });

  test("errors beside verdicts, retained cases in the plan, a regressed cell and its trial beside the baseline's", async ({ page }) => {
    await addScriptedModel(page, "Scripted e2e model");
    // A judge nobody answers: every judged check errors; the trials are neither passed for it nor failed.
    await addScriptedModel(page, "Unreachable judge", "http://127.0.0.1:9/v1");
    await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Candidate 1 model").selectOption({ label: "Scripted e2e model (openai-compatible scripted-1)" });
    await form.getByLabel("Case selection").selectOption("tag");
    await form.getByLabel("Tag").selectOption("orders");
    await form.getByLabel("Judge model for criteria").selectOption({ label: "Unreachable judge" });
    await form.getByRole("button", { name: "Plan" }).click();
    // With tools, a trial may make up to the step limit of calls: an upper bound.
    await expect(page.getByRole("region", { name: "Plan" })).toContainText("≤ 15");
    await expect(page.getByRole("region", { name: "Plan" })).toContainText("upper bounds");
    await form.getByRole("button", { name: "Launch" }).click();
    await waitFinished(page);
    await expect(page.getByRole("region", { name: "Errors" }).getByTestId("error-kind")).toContainText(/judge.*12 checks.*ECONNREFUSED/s);
    await expect(page.getByTestId("candidate-row")).toContainText("3 cases with errors");
    await page.getByRole("link", { name: "Errors only" }).click();
    await expect(page).toHaveURL(/filter=errors/);
    await expect(page.getByTestId("matrix-row")).toHaveCount(3);

    // The cases that failed were retained: they join a selection of other cases, and can be left out.
    await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Case selection").selectOption("tag");
    await form.getByLabel("Tag").selectOption("returns");
    await form.getByRole("button", { name: "Plan" }).click();
    await expect(page.getByTestId("retained-joined")).toContainText(/[1-9] retained regression cases? \(from earlier benches' failures\) joined the selection/);
    await form.getByLabel("Include retained regression cases").uncheck();
    await form.getByRole("button", { name: "Plan" }).click();
    await expect(page.getByTestId("retained-joined")).toHaveText("Retained regression cases are left out.");
    await expect(page.getByRole("region", { name: "Plan" }).getByTestId("manifest-row")).toHaveCount(3);

    // GSM8K: the cell that regressed is marked, and its trial shows the baseline's answer beside it.
    await page.goto("/systems/grade-school-math/benches/new");
    await form.getByLabel("Candidate 1 recorded output").selectOption("model-6b-finetuning");
    await form.getByLabel("Candidate 2 recorded output").selectOption("model-175b-verification");
    await form.getByRole("button", { name: "Launch" }).click();
    await waitFinished(page);
    await page.getByRole("link", { name: "Regressions only" }).click();
    await page
      .getByRole("link", { name: /by model-175b-verification: failed, regressed/ })
      .first()
      .click();
    const trial = page.getByRole("complementary", { name: "Trial" });
    await expect(trial.getByRole("note")).toContainText(/passed (for the baseline|in the last bench)/);
    await expect(trial.getByTestId("reference-output").first()).toContainText("Baseline · model-6b-finetuning");
  });

  test("cancel a running bench: unrun trials are skipped, finished ones stay", async ({ page }) => {
    // The scripted model answers the router's first 3 calls and never the next (e2e.json: router-first-3,
    // router-held): with concurrency 1 the bench runs 3 trials, then waits on the 4th for as long as
    // the test takes, so the counts below do not depend on the machine's speed.
    await addScriptedModel(page, "Scripted e2e model");
    await page.goto("/systems/customer-support/benches/new?prompt=intent-router");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Candidate 1 model").selectOption({ label: "Scripted e2e model (openai-compatible scripted-1)" });
    await form.getByLabel("Concurrency").fill("1");
    await form.getByLabel("Timeout (s)").fill("600"); // the held trial must not time out while the test runs
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    const progress = page.getByRole("region", { name: "Progress" });
    await expect(page.getByTestId("progress-count")).toContainText(/^3 \/ 154 trials/, { timeout: 20_000 });
    // The results table follows the bar without a reload, even when every trial it shows finished
    // before the first poll (it stayed at "0 / 0 / 0 (154 pending)" under 3 done: a tester's bench).
    await expect(page.getByTestId("candidate-row")).toContainText("3 / 0 / 0 (151 pending)", { timeout: 15_000 });
    // Reloading a running bench hydrates without a mismatch (the elapsed clock differs by design).
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
    for (let i = 0; i < 3; i++) {
      await page.reload();
      // The elapsed clock moves only once the page has hydrated and polled: hydration is over.
      const clock = progress.getByText(/^elapsed /);
      const shown = await clock.innerText();
      await expect(clock).not.toHaveText(shown);
    }
    expect(pageErrors.filter((e) => /hydrat|#418|#425/i.test(e))).toEqual([]);
    await expect(page.getByTestId("candidate-row")).toContainText("3 / 0 / 0 (151 pending)");
    await progress.getByRole("button", { name: "Cancel" }).click();
    // The dialog's way out does not read "Cancel" beside "Cancel bench".
    await expect(page.getByRole("alertdialog").getByRole("button", { name: "Keep running" })).toBeVisible();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel bench" }).click();
    await expect(progress.getByText("cancelled", { exact: true })).toBeVisible({ timeout: 20_000 });
    // The 3 finished trials stay; the running one and the 150 unrun ones are skipped.
    await expect(progress).toContainText("3 done · 0 errors · 151 skipped");
    await expect(page.getByTestId("progress-count")).toContainText("154 / 154 trials");
    // The results follow without a reload: the page re-reads them when the bench ends.
    await expect(page.getByTestId("candidate-row")).toContainText("3 / 0 / 151");
    // History does not present a cancelled bench's pick as a full recommendation.
    const benchId = /\/benches\/(\d+)/.exec(page.url())![1];
    await page.goto("/systems/customer-support/benches");
    const row = page.getByTestId("bench-row").filter({ has: page.getByRole("link", { name: new RegExp(`^#${benchId} `) }) });
    await expect(row).toContainText("cancelled");
    await expect(row).not.toContainText("✓ recommended");
  });
});
