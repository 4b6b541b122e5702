import { expect, test, type Page } from "./fixtures/test";
import { startScriptedModelServer, type ScriptedModelServer } from "./fixtures/scripted-model-server";

// Reruns inside a bench (issue #16 §3), live against a scripted OpenAI-compatible server of this
// spec's own (port 0), so the test counts exactly the model requests a Confirm makes. The
// candidate's answer to one case flips by that case's request count — right, wrong, then right —
// so 3 repeats show a suspected regression (2 of 3 against the baseline's 3 of 3: Fisher p = 0.5)
// and the 3 rerun trials (right each time) clear it. A strict right/wrong alternation cannot clear
// (the rerun fails again): server/bench/reruns.test.ts covers that case.

const FLAKY_CASE = "How do I locate my card?";
let server: ScriptedModelServer;

test.beforeAll(async () => {
  server = await startScriptedModelServer({
    defaultReply: { text: "card_arrival" },
    script: [
      {
        name: "flaky-candidate",
        when: { userText: FLAKY_CASE, model: "flaky-cand" },
        replies: [
          { text: "card_arrival" },
          { text: "lost_or_stolen_card" },
          { text: "card_arrival" },
          { text: "card_arrival" },
          { text: "card_arrival" },
          { text: "card_arrival" },
        ],
      },
    ],
  });
});
test.afterAll(async () => server?.close());

async function addModel(page: Page, name: string, modelId: string) {
  await page.goto("/models");
  if (await page.getByTestId("model-row").filter({ hasText: name }).count()) return;
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model ID").fill(modelId);
  await form.getByLabel("Base URL").fill(server.url);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("model-row").filter({ hasText: name })).toBeVisible();
}

test("Confirm suspected regressions: a flake is rerun, only its trials run, and it is cleared", async ({ page }) => {
  await addModel(page, "Rerun baseline", "flaky-base");
  await addModel(page, "Rerun candidate", "flaky-cand");

  await page.goto("/systems/customer-support/benches/new?prompt=intent-router");
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByRole("button", { name: "Add model candidate" }).click();
  await form.getByRole("button", { name: "Add model candidate" }).click();
  await form.getByLabel("Candidate 1 model").selectOption({ label: "Rerun baseline (openai-compatible flaky-base)" });
  await form.getByLabel("Candidate 2 model").selectOption({ label: "Rerun candidate (openai-compatible flaky-cand)" });
  await form.getByLabel("Include retained regression cases").uncheck();
  await form.getByLabel("Case budget").fill("2");
  await form.getByLabel("Trials per case").fill("3");
  await form.getByRole("button", { name: "Plan" }).click();
  const plan = page.getByRole("region", { name: "Plan" });
  await expect(plan.getByTestId("manifest-row")).toHaveCount(2);
  await form.getByRole("button", { name: "Launch" }).click();
  const progress = page.getByRole("region", { name: "Progress" });
  await expect(progress.getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  await expect(progress.getByTestId("progress-count")).toHaveText("12 / 12 trials");

  // The flake shows as a suspected regression that blocks the candidate.
  const rec = page.getByRole("region", { name: "Recommendation" });
  const candidate = rec.getByRole("listitem").filter({ hasText: "Rerun candidate" }).first();
  await expect(candidate).toContainText("not recommended: 1 regression");
  await candidate.getByText(/Blocking regressions/).click();
  await expect(candidate).toContainText("suspected");
  const reruns = page.getByRole("region", { name: "Reruns" });
  await expect(reruns.getByTestId("suspected-count")).toContainText("1 suspected regression blocks");

  // A second tab on the same bench, which will press Confirm after this one did.
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(other.getByRole("region", { name: "Reruns" }).getByRole("button", { name: "Confirm suspected regressions" })).toBeVisible();

  // The plan before it runs: 3 more trials per side on that one case, 6 model calls, no judge.
  const before = server.requests.count;
  await reruns.getByRole("button", { name: "Confirm suspected regressions" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Confirm suspected regressions?" });
  await expect(dialog.getByTestId("rerun-plan")).toContainText("Adds 6 trials to this bench");
  await expect(dialog.getByTestId("rerun-plan")).toContainText("on 1 case (");
  await expect(dialog.getByTestId("rerun-plan")).toContainText("6 model calls, 0 judge calls");
  // Tokens are the plan's estimate, and said so; the cost is the bench's measured one (unknown here: the scripted models have no prices).
  await expect(dialog.getByTestId("rerun-plan")).toContainText("output tokens (the plan's estimate), cost unknown (a model has no prices set).");
  await dialog.getByRole("button", { name: "Run 6 trials" }).click();

  await expect(progress.getByTestId("progress-count")).toHaveText("18 / 18 trials", { timeout: 60_000 });
  await expect(progress.getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  // Only the suspected case's trials ran: 3 for the baseline, 3 for the candidate.
  expect(server.requests.count - before).toBe(6);
  const texts = server.requests.log.slice(-6).map((r) => {
    const body = r.body as { model: string; messages: { role: string; content: unknown }[] };
    return `${body.model}: ${JSON.stringify(body.messages.at(-1)?.content)}`;
  });
  expect(texts.every((t) => t.includes("locate my card"))).toBe(true);

  // The flake did not reproduce: "flaky — cleared", and it no longer blocks the candidate.
  await expect(reruns.getByTestId("cleared-regression")).toHaveCount(1);
  await expect(reruns.getByTestId("cleared-regression")).toContainText("flaky — cleared");
  await expect(reruns.getByTestId("cleared-regression")).toContainText("banking77-001");
  await expect(reruns.getByTestId("cleared-regression")).toContainText("Rerun candidate");
  await expect(rec.getByRole("listitem").filter({ hasText: "Rerun candidate" }).first()).not.toContainText("not recommended");
  await expect(reruns.getByRole("button", { name: "Confirm suspected regressions" })).toHaveCount(0);
  // The matrix shows the cleared regression muted, not as "regressed".
  const cell = page.getByRole("link", { name: /^Open trial of banking77-001 by Rerun candidate/ });
  await expect(cell).toContainText("flaky — cleared");
  await expect(cell).not.toContainText("regressed");

  // The other tab, still showing the bench before the rerun, presses Confirm: refused, it shows the
  // bench as it is now (it kept "12 / 12 trials" and the Confirm button).
  await other.getByRole("region", { name: "Reruns" }).getByRole("button", { name: "Confirm suspected regressions" }).click();
  await expect(other.getByRole("region", { name: "Progress" }).getByTestId("progress-count")).toHaveText("18 / 18 trials");
  await expect(other.getByRole("button", { name: "Confirm suspected regressions" })).toHaveCount(0);
  await other.close();
});

test("Rerun errored trials: only the errored trial runs again, and the trial view keeps the attempt history", async ({ page }) => {
  // The candidate is rate-limited on banking77-002 for all 4 attempts of its trial (Retry-After 10 ms), then answers.
  server.setScript([
    {
      name: "rate-limited",
      when: { userTextIncludes: "not received my new card", model: "flaky-cand" },
      fault: { status: 429, message: "Rate limit reached for requests", retryAfterMs: 10 },
      times: 4,
    },
  ]);
  await addModel(page, "Rerun baseline", "flaky-base");
  await addModel(page, "Rerun candidate", "flaky-cand");
  await page.goto("/systems/customer-support/benches/new?prompt=intent-router");
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByRole("button", { name: "Add model candidate" }).click();
  await form.getByRole("button", { name: "Add model candidate" }).click();
  await form.getByLabel("Candidate 1 model").selectOption({ label: "Rerun baseline (openai-compatible flaky-base)" });
  await form.getByLabel("Candidate 2 model").selectOption({ label: "Rerun candidate (openai-compatible flaky-cand)" });
  await form.getByLabel("Include retained regression cases").uncheck();
  await form.getByLabel("Case budget").fill("2");
  await form.getByRole("button", { name: "Launch" }).click();
  const progress = page.getByRole("region", { name: "Progress" });
  await expect(progress.getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  await expect(progress).toContainText("3 done · 1 error ·");
  // The errored trial is an error left: listed by kind.
  await expect(page.getByRole("region", { name: "Errors" })).toContainText("Rate limit reached for requests");

  const reruns = page.getByRole("region", { name: "Reruns" });
  const before = server.requests.count;
  await reruns.getByRole("button", { name: "Rerun errored trials" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Rerun errored trials?" });
  await expect(dialog.getByTestId("rerun-plan")).toContainText("Adds 1 trial to this bench (Rerun candidate");
  await expect(dialog.getByTestId("rerun-plan")).toContainText("on 1 case (banking77-002)");
  await expect(dialog.getByTestId("rerun-plan")).toContainText("1 model call, 0 judge calls");
  await dialog.getByRole("button", { name: "Run 1 trial", exact: true }).click();
  await expect(progress.getByTestId("progress-count")).toHaveText("5 / 5 trials", { timeout: 60_000 });
  await expect(progress.getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  expect(server.requests.count - before).toBe(1);
  await expect(reruns.getByRole("button", { name: "Rerun errored trials" })).toHaveCount(0);
  // Replaced by its rerun, it is attempt history (below), not an error left: "Errors by kind" no longer lists it (issue #16).
  await expect(progress).toContainText("0 errors (1 rerun)");
  await expect(page.getByRole("region", { name: "Errors" })).toHaveCount(0);
  // The bench keeps its own elapsed time beside the rerun's.
  await expect(progress).toContainText(/elapsed \S+ · rerun: elapsed \S+/);
  // The cell says an error was rerun there.
  await expect(page.getByRole("link", { name: /^Open trial of banking77-002 by Rerun candidate.*: passed, 1 errored trial rerun/ })).toContainText(
    "error rerun",
  );

  // The cell now shows the rerun; its trial links to the errored attempt, which is kept as it was.
  await page.getByRole("link", { name: /^Open trial of banking77-002 by Rerun candidate.*: passed/ }).click();
  const trial = page.getByRole("complementary", { name: "Trial" });
  await expect(trial.getByTestId("trial-attempts")).toContainText("Rerun of errored trial #");
  // It stands for the errored repeat 1 (it said "repeat 2" on this one-trial bench).
  await expect(trial.getByTestId("trial-repeat")).toHaveText("repeat 1");
  await expect(trial).toContainText("rerun of errored repeat 1");
  await expect(trial.getByTestId("trial-attempts")).toContainText("Rate limit reached for requests");
  await trial.getByTestId("trial-attempts").getByRole("link").click();
  await expect(trial).toContainText("error");
  await expect(trial.getByTestId("trial-attempts")).toContainText(/This errored trial was rerun as #\d+ \(done\)/);
});
