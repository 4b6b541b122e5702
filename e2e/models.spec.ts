import { expect, test, type Page } from "./fixtures/test";

const MODEL_HOST = `127.0.0.1:${process.env.E2E_MODEL_PORT ?? 4010}`;
const MODEL_URL = `http://${MODEL_HOST}/v1`;

/** Opens the Add model form and fills an OpenAI-compatible configuration. */
async function fillModel(page: Page, o: { name: string; baseUrl: string; apiKeyEnv: string }) {
  await page.goto("/models");
  await page.getByRole("button", { name: "Add model" }).first().click();
  const form = page.getByRole("complementary", { name: "Add model" });
  await form.getByLabel("Name").fill(o.name);
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model ID").fill("scripted-1");
  await form.getByLabel("Base URL").fill(o.baseUrl);
  await form.getByLabel("API key variable").fill(o.apiKeyEnv);
  await form.getByRole("button", { name: "Add model" }).click();
  return form;
}

// Security review item 2: a model configuration cannot send arbitrary server variables anywhere.
test.describe("Models: the key policy", () => {
  test("a key variable outside the rule is refused at save time, naming the rule", async ({ page }) => {
    const form = await fillModel(page, { name: "exfil variable", baseUrl: MODEL_URL, apiKeyEnv: "BENCHWORK_DB" });
    await expect(form.locator("#m-key-error")).toHaveText(
      "BENCHWORK_DB is not an allowed API key variable: a key variable's name must end in _API_KEY (^[A-Z][A-Z0-9_]*_API_KEY$, e.g. OPENAI_API_KEY) or be listed in BENCHWORK_ALLOWED_KEY_VARS on the server.",
    );
    await page.goto("/models");
    await expect(page.getByTestId("model-row").filter({ hasText: "exfil variable" })).toHaveCount(0);
  });

  test("an allowed key pointed at a host it is not bound to is refused, naming host, variable and the fix", async ({ page }) => {
    const form = await fillModel(page, { name: "exfil host", baseUrl: MODEL_URL, apiKeyEnv: "OPENAI_API_KEY" });
    await expect(form.locator("#m-url-error")).toContainText(`The key in OPENAI_API_KEY may not be sent to http://${MODEL_HOST} (from the base URL).`);
    await expect(form.locator("#m-url-error")).toContainText(`BENCHWORK_KEY_HOSTS="OPENAI_API_KEY=http://${MODEL_HOST}"`);
    await page.goto("/models");
    await expect(page.getByTestId("model-row").filter({ hasText: "exfil host" })).toHaveCount(0);
  });

  test("a key the operator bound to the scripted server is saved, shown as set, and used by Test connection", async ({ page }) => {
    await fillModel(page, { name: "Bound key model", baseUrl: MODEL_URL, apiKeyEnv: "E2E_SCRIPTED_API_KEY" });
    const row = page.getByTestId("model-row").filter({ hasText: "Bound key model" });
    await expect(row).toContainText("E2E_SCRIPTED_API_KEY");
    await expect(row).toContainText("set on the server");
    await expect(row).not.toContainText("e2e-scripted-key");
    await row.getByRole("button", { name: "Test connection" }).click();
    await expect(row.getByRole("status")).toHaveText(/^Answered “OK” in \d+ ms$/);
  });
});
