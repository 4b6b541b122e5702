import { expect, test, type Page } from "./fixtures/test";
import Database from "better-sqlite3";
import http from "node:http";

// Seals of the server (issue "Seal the server and the sandboxes"): requests under a foreign Host
// (DNS rebinding), cross-site writes, and the response headers every page carries.

const PORT = Number(process.env.E2E_PORT ?? 3107);
const SELF = `127.0.0.1:${PORT}`;
const UPLOADS = "/api/systems/tool-use/uploads?name=cross-site.csv";
const CSV = "question,answer\nWhat is 2+2?,4\n";

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request to the e2e server with exactly these headers (fetch and Playwright's request
 * context would set Host and Origin themselves; an attacker's browser or a DNS-rebound page does not
 * ask us).
 */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Stored uploads in the e2e server's database (read-only; the server owns it). */
function countUploads(): number {
  const db = new Database("e2e/.artifacts/e2e.db", { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM dataset_uploads").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test.describe("Security", () => {
  test("a request under a foreign Host (DNS rebinding) is refused before any route runs", async () => {
    const page = await raw("GET", "/", { Host: `evil.example:${PORT}` });
    expect(page.status).toBe(421);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toContain('"evil.example"');
    expect(page.body).toContain("BENCHWORK_ALLOWED_HOSTS");
    expect((await raw("GET", "/api/benches/1/progress", { Host: `evil.example:${PORT}` })).status).toBe(421);

    // A rebound page's write carries a matching Origin: still refused, nothing stored.
    const before = countUploads();
    const write = await raw("POST", UPLOADS, { Host: `evil.example:${PORT}`, Origin: `http://evil.example:${PORT}`, "Content-Type": "text/plain" }, CSV);
    expect(write.status).toBe(421);
    expect(countUploads()).toBe(before);

    // The loopback names answer.
    for (const host of [`localhost:${PORT}`, SELF, `[::1]:${PORT}`]) expect((await raw("GET", "/about", { Host: host })).status, host).toBe(200);
  });

  test("a cross-site upload POST is refused and nothing is stored; a same-origin one is accepted", async () => {
    const before = countUploads();
    const crossSite = await raw("POST", UPLOADS, { Host: SELF, Origin: "http://evil.example", "Content-Type": "text/plain" }, CSV);
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toContain('"http://evil.example"');
    const noOrigin = await raw("POST", UPLOADS, { Host: SELF, "Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain" }, CSV);
    expect(noOrigin.status).toBe(403);
    const otherPort = await raw("POST", UPLOADS, { Host: SELF, Origin: `http://127.0.0.1:${PORT + 1}`, "Content-Type": "text/plain" }, CSV);
    expect(otherPort.status).toBe(403);
    expect(countUploads()).toBe(before);

    const sameOrigin = await raw("POST", UPLOADS, { Host: SELF, Origin: `http://${SELF}`, "Sec-Fetch-Site": "same-origin", "Content-Type": "text/plain" }, CSV);
    expect(sameOrigin.status).toBe(201);
    expect(JSON.parse(sameOrigin.body)).toMatchObject({ ok: true, data: { fileName: "cross-site.csv", rowCount: 1 } });
    expect(countUploads()).toBe(before + 1);
  });

  test("pages carry a nonce CSP, frame-ancestors 'none', nosniff and a referrer policy, and no X-Powered-By", async () => {
    const first = await raw("GET", "/", { Host: SELF });
    expect(first.status).toBe(200);
    const csp = String(first.headers["content-security-policy"] ?? "");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, csp).toBeTruthy();
    const scriptSrc = csp
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src "));
    expect(scriptSrc).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(first.headers["x-frame-options"]).toBe("DENY");
    expect(first.headers["x-content-type-options"]).toBe("nosniff");
    expect(first.headers["referrer-policy"]).toBe("same-origin");
    expect(first.headers["x-powered-by"]).toBeUndefined();
    // Next's scripts carry this response's nonce; the next response has another one.
    expect(first.body).toContain(`nonce="${nonce}"`);
    const second = await raw("GET", "/", { Host: SELF });
    expect(String(second.headers["content-security-policy"])).not.toContain(nonce);
    // Route handlers and static files carry the headers too.
    const api = await raw("GET", "/api/systems/tool-use/library/export?format=jsonl", { Host: SELF });
    expect(api.headers["x-content-type-options"]).toBe("nosniff");
    expect(api.headers["x-powered-by"]).toBeUndefined();
  });

  test("every page loads in Chromium with no CSP violation, also after client navigation and in dialogs", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await page.exposeFunction("reportCspViolation", (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { reportCspViolation: (v: string) => void }).reportCspViolation(
          `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
        ),
      );
    });
    const expectNoViolations = async (where: string) => {
      // Violations are reported asynchronously: a round-trip through the page flushes them.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      expect(violations, where).toEqual([]);
    };
    const visit = async (path: string, visible: Parameters<Page["getByRole"]>) => {
      await page.goto(path);
      await expect(page.getByRole(...visible).first()).toBeVisible();
      await expectNoViolations(path);
    };

    await visit("/", ["link", { name: /Customer support/ }]);
    await visit("/about", ["heading", { name: "About" }]);
    await visit("/models", ["button", { name: "Add model" }]);
    await visit("/systems/customer-support", ["tab", { name: "Cases" }]);
    await visit("/systems/customer-support/library", ["tab", { name: "Cases" }]);
    await visit("/systems/customer-support/library/criteria", ["tab", { name: "Criteria" }]);
    await visit("/systems/tool-use/datasets", ["link", { name: "Upload cases" }]);
    await visit("/systems/tool-use/datasets/upload", ["button", { name: "Upload and map columns" }]);
    await visit("/systems/grade-school-math/benches", ["link", { name: "New bench" }]);
    await visit("/systems/grade-school-math/benches/new", ["button", { name: "Launch" }]);
    await visit("/no-such-page", ["heading", { name: /not found/i }]);

    // Client navigation (scripts loaded by the router), server actions, and a dialog (Radix injects
    // styles): add a case to the Tool use library, then remove it again.
    const id = `e2e-csp-${Date.now()}`;
    await page.goto("/systems/tool-use/library");
    await page.getByRole("link", { name: "Add case" }).click();
    const add = page.getByRole("complementary", { name: "Add case" });
    await add.getByLabel("Input").fill("Which tools exist?");
    await add.getByLabel("Expected result").fill("None");
    await add.getByLabel("Case ID (optional)").fill(id);
    await add.getByRole("button", { name: "Add case" }).click();
    const panel = page.getByRole("complementary", { name: `Edit case ${id}` });
    await expect(panel).toBeVisible();
    await panel.getByLabel("Evaluator kind to add").selectOption("contains");
    await panel.getByRole("button", { name: "Add evaluator" }).click();
    await panel.getByLabel("Output").fill("None at all");
    await panel.getByRole("button", { name: "Try it" }).click();
    await expect(panel.getByTestId("check-result").first()).toContainText("passed");
    await panel.getByRole("button", { name: "Remove", exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Remove case" }).click();
    await expect(page.getByText(`Removed ${id}`)).toBeVisible();
    await page.getByRole("link", { name: "Models" }).click();
    await expect(page.getByRole("button", { name: "Add model" }).first()).toBeVisible();
    await expectNoViolations("client navigation, server actions and a dialog");

    // An upload from the page (a same-origin POST to the route handler) reaches the mapping.
    await page.goto("/systems/tool-use/datasets/upload");
    await page.locator("#upload-file").setInputFiles({ name: `csp-${Date.now()}.csv`, mimeType: "text/csv", buffer: Buffer.from(CSV) });
    await page.getByRole("button", { name: "Upload and map columns" }).click();
    await expect(page.getByRole("heading", { name: /^Map and preview: csp-/ })).toBeVisible();
    await expectNoViolations("upload and mapping");

    // A bench page with its live progress.
    await page.goto("/systems/grade-school-math/benches/new");
    const form = page.locator("form").filter({ hasText: "New bench" });
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(page).toHaveURL(/\/benches\/\d+$/);
    await expect(page.getByRole("region", { name: "Progress" }).getByText(/^(finished|cancelled)$/)).toBeVisible({ timeout: 60_000 });
    await expectNoViolations("bench page");
  });
});
