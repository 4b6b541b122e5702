import { expect, test } from "./fixtures/test";

const LIB = "/systems/customer-support/library";

test.describe("Evaluators on a case", () => {
  test("build a tool-call check in the form, Try it, and save it with the case", async ({ page }) => {
    const id = `e2e-eval-${Date.now()}`;
    await page.goto(`${LIB}?new=1`);
    const add = page.getByRole("complementary", { name: "Add case" });
    await add.getByLabel("Target prompt").selectOption({ label: "support-agent" });
    await add.getByLabel("Input").fill("What is your returns policy?");
    await add.getByLabel("Expected result").fill("Looks up the returns policy.");
    await add.getByLabel("Case ID (optional)").fill(id);
    await add.getByRole("button", { name: "Add case" }).click();
    const panel = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panel).toBeVisible();

    await panel.getByLabel("Evaluator kind to add").selectOption("tool_call_syntax");
    await panel.getByRole("button", { name: "Add evaluator" }).click();
    await panel.getByLabel("Alternative 1 call 1 tool name").fill("lookup_policy");
    await panel.getByRole("button", { name: "Add argument" }).click();
    await panel.getByLabel("Alternative 1 call 1 argument 1 name").fill("topic");
    await panel.getByLabel("Alternative 1 call 1 argument 1 accepted values").fill("returns");

    await panel.getByLabel("Output").fill("Unopened items can be returned within 30 days.");
    await panel.getByLabel("Tool calls (optional, JSON)").fill('[{"toolName":"lookup_policy","input":"{\\"topic\\":\\"returns\\"}"}]');
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByTestId("check-result").first()).toContainText("passed");

    await panel.getByLabel("Tool calls (optional, JSON)").fill('[{"toolName":"lookup_policy","input":{"topic":"shipping"}}]');
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByTestId("check-result").first()).toContainText("failed");
    await expect(panel.getByTestId("check-result").first()).toContainText("topic");

    await panel.getByLabel("Tool calls (optional, JSON)").fill("[{not json");
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByText(/Tool calls are not valid JSON/)).toBeVisible();

    await panel.getByRole("button", { name: "Save for future benches" }).click();
    await expect(panel.getByText("Revision 2 (current)")).toBeVisible();
    await expect(page.getByRole("complementary", { name: `Edit case ${id}` }).getByTestId("evaluator")).toHaveCount(1);
    await expect(page.getByRole("complementary", { name: `Edit case ${id}` }).getByTestId("evaluator")).toContainText("lookup_policy");
  });

  test("a configuration mistake is reported on save and nothing is stored", async ({ page }) => {
    await page.goto(`${LIB}?prompt=intent-router`);
    await page.locator("tbody tr").first().click();
    const panel = page.getByRole("complementary", { name: /Edit case banking77-/ });
    await panel.getByLabel("Evaluator kind to add").selectOption("answer_bank");
    await panel.getByRole("button", { name: "Add evaluator" }).click();
    await panel.getByRole("button", { name: "Save for future benches" }).click();
    await expect(panel.getByRole("alert")).toContainText("Evaluator 2");
    await expect(panel.getByTestId("evaluator").nth(1)).toContainText(/answer/i);
    await expect(panel.getByText("Revision 1 (current)")).toBeVisible();
  });

  test("a custom evaluator runs sandboxed; a crash is an evaluator error, not a model failure", async ({ page }) => {
    await page.goto(`${LIB}?prompt=intent-router`);
    await page.locator("tbody tr").nth(1).click();
    const panel = page.getByRole("complementary", { name: /Edit case banking77-/ });
    await panel.getByLabel("Evaluator kind to add").selectOption("custom");
    await panel.getByRole("button", { name: "Add evaluator" }).click();
    await panel.getByLabel("Code").fill("function evaluate({ output }) { return process.env.SECRET ? true : output === 'card_arrival'; }");
    await panel.getByLabel("Output").fill("card_arrival");
    await panel.getByRole("button", { name: "Try it" }).click();
    const custom = panel.getByTestId("check-result").nth(1);
    await expect(custom).toContainText("error");
    await expect(custom).toContainText("evaluator infrastructure failure");
    await panel.getByLabel("Code").fill("function evaluate({ output }) { return output === 'card_arrival'; }");
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByTestId("check-result").nth(1)).toContainText("passed");
  });

  test("tool-call form: a duplicate argument name is flagged, never merged, and removing a row keeps the others' values", async ({ page }) => {
    await page.goto(`${LIB}?prompt=support-agent&q=order_789`);
    await page.locator("tbody tr").first().click();
    const panel = page.getByRole("complementary", { name: /Edit case support-where-is-order/ });
    await panel.getByLabel("Evaluator kind to add").selectOption("tool_call_syntax");
    await panel.getByRole("button", { name: "Add evaluator" }).click();
    await panel.getByLabel("Alternative 1 call 1 tool name").fill("get_order");
    await panel.getByRole("button", { name: "Add argument" }).click();
    await panel.getByRole("button", { name: "Add argument" }).click();
    await panel.getByLabel("Alternative 1 call 1 argument 1 name").fill("first");
    await panel.getByLabel("Alternative 1 call 1 argument 1 accepted values").fill('"A"');
    await panel.getByLabel("Alternative 1 call 1 argument 2 name").fill("first");
    await expect(panel.getByRole("alert").filter({ hasText: "appears twice" })).toBeVisible();
    await expect(panel.getByLabel(/Alternative 1 call 1 argument \d name/)).toHaveCount(2);
    await panel.getByLabel("Alternative 1 call 1 argument 2 name").fill("orderId");
    await panel.getByLabel("Alternative 1 call 1 argument 2 accepted values").fill('"order_789"');
    await panel.getByRole("button", { name: "Remove Alternative 1 call 1 argument 1" }).click();
    await expect(panel.getByLabel("Alternative 1 call 1 argument 1 name")).toHaveValue("orderId");
    await expect(panel.getByLabel("Alternative 1 call 1 argument 1 accepted values")).toHaveValue('"order_789"');
    await panel.getByLabel("Tool calls (optional, JSON)").fill('[{"toolName":"get_order","input":{"orderId":"order_789"}}]');
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByTestId("check-result").filter({ hasText: "Tool calls: get_order(orderId)" })).toContainText("passed");
  });
});
