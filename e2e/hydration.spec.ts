// Playwright's own goto on purpose, not ./fixtures/test's: these tests are about what the app does
// when typing comes before hydration, which that fixture's goto waits out.
import { expect, test, type Page } from "@playwright/test";

const LIB = "/systems/customer-support/library";

/** Loads `url` on a slow machine made on purpose (Chromium's CPU throttled 20×), so React is still hydrating at the load event; `type` runs then, at normal speed after. */
async function typeDuringSlowLoad(page: Page, url: string, type: () => Promise<void>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
  await page.goto(url);
  await type();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
}

test.describe("Typing during a slow page load", () => {
  // The throttled load takes ~20 s here; room for a busy machine beside it.
  test.setTimeout(180_000);
  // React's hydration put a textarea's server text back under a fill that came first: without
  // components/ui/textarea.tsx this failed 3 of 3 runs with "Typed right after the page
  // loadedAre your cards available in Europe?" (and a fresh clone's run once saved "Edited in tab
  // BOriginal question").
  test("a case's text typed right after a slow page load keeps exactly the typed text", async ({ page }) => {
    await page.goto(LIB);
    await page.locator("tbody tr").first().click();
    await expect(page).toHaveURL(/[?&]case=\d+/);
    const input = page.getByRole("complementary", { name: /^Edit case / }).getByLabel("Input");
    await typeDuringSlowLoad(page, page.url(), () => input.fill("Typed right after the page loaded"));
    await expect(input).toHaveValue("Typed right after the page loaded");
  });
});
