import { expect, test, type Page } from "./fixtures/test";

const MODEL_URL = `http://127.0.0.1:${process.env.E2E_MODEL_PORT ?? 4010}/v1`;
const CRITERIA = "/systems/customer-support/library/criteria?prompt=support-agent";

async function addModel(page: Page, o: { name: string; provider: string; modelId: string; baseUrl?: string }) {
  await page.goto("/models");
  if (await page.getByTestId("model-row").filter({ hasText: o.name }).count()) return;
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(o.name);
  await form.getByLabel("Provider").selectOption(o.provider);
  await form.getByLabel("Model ID").fill(o.modelId);
  if (o.baseUrl) await form.getByLabel("Base URL").fill(o.baseUrl);
  await form.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByTestId("model-row").filter({ hasText: o.name })).toBeVisible();
}

test.describe("Generated criteria and scenarios", () => {
  test("a model without its key: Generate says which setting is missing", async ({ page }) => {
    await addModel(page, { name: "OpenAI without key", provider: "openai", modelId: "gpt-4o-mini" });
    await page.goto(CRITERIA);
    await page.getByRole("link", { name: "Generate" }).click();
    await expect(page.getByRole("heading", { name: "Generate criteria and scenarios" })).toBeVisible();
    await page.getByLabel("Generator model").selectOption({ label: "OpenAI without key (openai:gpt-4o-mini)" });
    await expect(page.getByText(`Set OPENAI_API_KEY in the server's environment (the key of model configuration "OpenAI without key").`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Generate — the model's key is missing" })).toBeDisabled();
  });

  test("generate against the scripted model, then accept, customize and dismiss proposals", async ({ page }) => {
    await addModel(page, { name: "Scripted e2e model", provider: "openai-compatible", modelId: "scripted-1", baseUrl: MODEL_URL });
    await page.goto(CRITERIA);
    await page.getByRole("link", { name: "Generate" }).click();
    await page.getByLabel("Generator model").selectOption({ label: "Scripted e2e model (openai-compatible:scripted-1)" });
    await page.getByLabel("Criteria").fill("3");
    await page.getByLabel("Scenarios").fill("3");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    await expect(page.getByText("Proposed 3 criteria and 2 scenarios (3 dropped); review them below")).toBeVisible();

    const list = page.getByRole("list", { name: "Proposals" });
    await expect(list.getByTestId("proposal")).toHaveCount(5);
    await expect(page.getByTestId("run-quality")).toContainText("Dropped 3 (2 near-duplicates, 1 invalid)");
    const calm = list.getByTestId("proposal").filter({ hasText: "Keep the customer's tone calm" });
    await expect(calm).toContainText("cannot be observed");
    await expect(list.getByTestId("proposal").filter({ hasText: "Mention the order number in the reply" })).toContainText("static: contains");
    const parcel = list.getByTestId("proposal").filter({ hasText: "WHERE IS MY PARCEL" });
    await expect(parcel).toContainText("Covers “order status” for persona “Angry customer” (edge case)");
    await expect(parcel).toContainText("shop_name=Kettle Co");

    // Accept the first criterion from the keyboard; the focus stays in the list.
    const first = list.getByTestId("proposal").filter({ hasText: "Ask for the order number before promising anything" });
    await first.focus();
    await page.keyboard.press("a");
    await expect(page.getByText("Accepted “Ask for the order number before promising anything” as a generated criterion")).toBeVisible();
    await expect(list.getByTestId("proposal")).toHaveCount(4);
    await expect(list.getByTestId("proposal").first()).toBeFocused();

    // Customize a criterion with a changed rule.
    await page.getByRole("button", { name: "Customize: Mention the order number in the reply" }).click();
    await page.getByLabel("Rule").fill("Quote the order number exactly");
    await page.getByRole("button", { name: "Save as custom criterion" }).click();
    await expect(page.getByText("Saved “Mention the order number in the reply” as a custom criterion")).toBeVisible();

    // Dismiss a scenario, accept the other.
    await page.getByRole("button", { name: "Dismiss: WHERE IS MY PARCEL, THIRD TIME ASKING" }).click();
    await expect(page.getByText("Dismissed “WHERE IS MY PARCEL, THIRD TIME ASKING”")).toBeVisible();
    await page.getByRole("button", { name: "Accept: kettle broke on day 2, refund pls" }).click();
    await expect(page.getByText(/Accepted “kettle broke on day 2, refund pls” as a generated case /)).toBeVisible();
    await expect(list.getByTestId("proposal")).toHaveCount(1);
    await page.getByRole("button", { name: "Dismiss all" }).click();
    await expect(page.getByText("No proposals await review. Generate some above.")).toBeVisible();

    // The library: the accepted criterion is generated and active, the customized one custom.
    await page.getByRole("link", { name: "Back to Criteria" }).click();
    const generated = page.getByRole("region", { name: /Generated criteria/ });
    await expect(generated.getByTestId("criterion-row").filter({ hasText: "Ask for the order number before promising anything" })).toContainText("active");
    const custom = page.getByRole("region", { name: /Custom criteria/ });
    await expect(custom.getByTestId("criterion-row").filter({ hasText: "Quote the order number exactly" })).toContainText("custom");
    await expect(page.getByText("Keep the customer's tone calm")).toHaveCount(0);

    // The accepted scenario is a generated case of the prompt.
    await page.goto("/systems/customer-support/library?source=generated");
    await expect(page.locator("tbody tr", { hasText: "kettle broke on day 2, refund pls" })).toHaveCount(1);
    await expect(page.locator("tbody tr", { hasText: "WHERE IS MY PARCEL" })).toHaveCount(0);

    // A generated case is read-only; Customize makes an editable custom copy and pauses it.
    await page.locator("tbody tr", { hasText: "kettle broke on day 2, refund pls" }).click();
    const panel = page.getByRole("complementary", { name: /^Edit case / });
    await expect(panel).toContainText("Generated cases are read-only.");
    await expect(panel.getByRole("button", { name: "Save for future benches" })).toBeDisabled();
    await panel.getByRole("button", { name: "Customize" }).click();
    await expect(page.getByText(/^Created .+, an editable copy of .+, and paused the generated one$/)).toBeVisible();
    const copy = page.getByRole("complementary", { name: /^Edit case / });
    await expect(copy).not.toContainText("Generated cases are read-only.");
    await expect(copy.getByLabel("Input")).toHaveValue("kettle broke on day 2, refund pls");
  });

  test("New bench generates criteria and scenarios at launch; the bench pins them and History shows them", async ({ page }) => {
    await addModel(page, { name: "Scripted e2e model", provider: "openai-compatible", modelId: "scripted-1", baseUrl: MODEL_URL });
    await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByLabel("Candidate 1 model").selectOption({ label: "Scripted e2e model (openai-compatible scripted-1)" });
    // Only generated cases: the explicit and retained ones are benched elsewhere.
    await form.getByLabel("Case selection").selectOption("source");
    await form.getByLabel("Source").selectOption("generated");
    await form.getByLabel("Include retained regression cases").uncheck();
    await form.getByLabel("Generate criteria and scenarios for this bench").check();
    await form.getByLabel("Generator model").selectOption({ label: "Scripted e2e model (openai-compatible:scripted-1)" });
    await form.getByLabel("Criteria to generate").fill("3");
    await form.getByLabel("Scenarios to generate").fill("3");
    await form.getByLabel("Title (optional)").fill("Generated at launch");
    await form.getByRole("button", { name: "Plan" }).click();
    const generation = page.getByRole("region", { name: "Plan" }).getByTestId("plan-generation");
    await expect(generation).toContainText(
      "Generated at launch by Scripted e2e model: 3 criteria and 3 scenarios (3 fit the case budget, after the cases above).",
    );
    // Criteria, concepts and personas, one call per persona (at most 3 for 3 scenarios).
    await expect(generation).toContainText("≤ 5 generator calls");
    await expect(generation).toContainText("cost unknown (set prices on the Models page)");

    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    await expect(page.getByRole("region", { name: "Progress" }).getByText(/^(finished|cancelled)$/)).toHaveText("finished", { timeout: 60_000 });
    const benchUrl = page.url();

    // History: the bench's manifest and pinned rubric show the generated items as they were.
    await page.goto("/systems/customer-support/benches");
    await page.getByRole("link", { name: "Generated at launch" }).first().click();
    await expect(page).toHaveURL(benchUrl);
    await page.getByRole("tab", { name: "Manifest" }).click();
    const manifest = page.getByRole("region", { name: "Manifest" });
    await expect(manifest).toContainText(/Generated at launch by openai-compatible:scripted-1 \(run [0-9a-f]{8}\): \d criteri(on|a) and \d cases?\./);
    await expect(manifest.getByTestId("manifest-row").filter({ hasText: "generated · generated" }).filter({ hasText: "included" }).first()).toBeVisible();
    await page.getByRole("tab", { name: "Rubric" }).click();
    const rubric = page.getByRole("region", { name: "Pinned rubric" });
    await expect(rubric.getByRole("listitem").filter({ hasText: "Keep the customer's tone calm" })).toContainText("generated");

    // The library has the generated case (read-only, origin generated); pause it so later benches of the prompt leave it out.
    await page.goto("/systems/customer-support/library?source=generated");
    const parcel = page.locator("tbody tr", { hasText: "WHERE IS MY PARCEL, THIRD TIME ASKING" });
    await expect(parcel).toHaveCount(1);
    await parcel.click();
    const panel = page.getByRole("complementary", { name: /^Edit case / });
    await expect(panel).toContainText("Generated cases are read-only.");
    await panel.getByRole("button", { name: "Pause", exact: true }).click();
    await expect(page.getByText(/^Paused .+: it stays in the library but out of future benches$/)).toBeVisible();
  });

  test("New bench without a usable generator model explains what to configure", async ({ page }) => {
    await addModel(page, { name: "OpenAI without key", provider: "openai", modelId: "gpt-4o-mini" });
    await page.goto("/systems/customer-support/benches/new?prompt=support-agent");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByLabel("Generate criteria and scenarios for this bench").check();
    await form.getByLabel("Generator model").selectOption({ label: "OpenAI without key (openai:gpt-4o-mini) — needs setup" });
    await expect(form.getByRole("status")).toHaveText(`Set OPENAI_API_KEY in the server's environment (the key of model configuration "OpenAI without key").`);
    await form.getByRole("button", { name: "Add model candidate" }).click();
    await form.getByRole("button", { name: "Plan" }).click();
    await expect(form.getByRole("alert")).toContainText("The generator model cannot run: Set OPENAI_API_KEY");
  });
});
