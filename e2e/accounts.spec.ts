import { expect, test, type Browser, type BrowserContext, type Page } from "./fixtures/test";
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { freePort, startTeamServer, type TeamServer } from "./fixtures/team-server";
import { startOidcProvider, type TestOidcProvider } from "./fixtures/oidc-test-provider";

// Issue 19: a team server (its own `next start` with users, see fixtures/team-server.ts): sign-in,
// roles on every action, sign-out that really ends the session, brute force, API tokens, OIDC.

const ADMIN = { email: "ada@example.com", role: "admin", password: "admin-password-0001" };
const EDITOR = { email: "ed@example.com", role: "editor", password: "editor-password-0001" };
const VIEWER = { email: "vic@example.com", role: "viewer", password: "viewer-password-0001" };
const SSO_USER = { email: "sso@example.com", role: "viewer", password: "sso-user-password-0001" };
/** The team server keys its sign-in rate limit on this header (BENCHWORK_CLIENT_IP_HEADER), as behind a reverse proxy. */
const IP_HEADER = "x-e2e-client-ip";

let team: TeamServer;
let idp: TestOidcProvider;
let nextIp = 1;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  idp = await startOidcProvider(`http://127.0.0.1:${port}/api/auth/callback/oidc`);
  team = await startTeamServer({
    port,
    users: [ADMIN, EDITOR, VIEWER, SSO_USER],
    env: {
      BENCHWORK_CLIENT_IP_HEADER: IP_HEADER,
      BENCHWORK_OIDC_ISSUER: idp.issuer,
      BENCHWORK_OIDC_CLIENT_ID: idp.clientId,
      BENCHWORK_OIDC_CLIENT_SECRET: idp.clientSecret,
      BENCHWORK_OIDC_NAME: "Test SSO",
    },
  });
});

test.afterAll(async () => {
  await team?.stop();
  await idp?.stop();
});

/** A fresh browser context on the team server, as a client with its own address. */
async function client(browser: Browser, ip = `10.0.0.${nextIp++}`): Promise<BrowserContext> {
  return browser.newContext({ baseURL: team.url, extraHTTPHeaders: { [IP_HEADER]: ip } });
}

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(user.email);
}

/** The id of a server action in the production build (what a forged request needs). */
function actionIds(): { id: string; name: string; file: string }[] {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName?: string; filename?: string }>;
  };
  return Object.entries(manifest.node).map(([id, v]) => ({ id, name: v.exportedName ?? "", file: v.filename ?? "" }));
}

/** Calls a server action directly, as a script would, with the context's cookies. */
async function callAction(context: BrowserContext, id: string, args: unknown[]): Promise<{ status: number; text: string }> {
  const res = await context.request.post("/", {
    headers: { "Next-Action": id, "Content-Type": "text/plain;charset=UTF-8", Origin: team.url },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });
  return { status: res.status(), text: await res.text() };
}

function countBenches(): number {
  const db = new Database(team.dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM benches").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test("a visitor is sent to sign-in; a wrong password is refused; the right one signs in", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await page.goto("/systems/grade-school-math/library");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsystems%2Fgrade-school-math%2Flibrary$/);
  await expect(page.getByTestId("single-user-notice")).toHaveCount(0);
  await page.getByLabel("E-mail").fill(ADMIN.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong e-mail or password.");
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/systems\/grade-school-math\/library$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${ADMIN.email} · admin`);
  // An API route without a session: 401, not the data.
  const anonymous = await (await client(browser)).request.get("/api/benches/1/export?format=json");
  expect(anonymous.status()).toBe(401);
  await context.close();
});

test("a viewer sees no edit controls, and a forged request to an editor's action is refused", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await signIn(page, VIEWER);
  await page.goto("/systems/grade-school-math/library");
  await expect(page.getByRole("link", { name: "Cases" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Add case" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Upload cases" })).toBeHidden();
  await page.goto("/systems/grade-school-math/library/criteria");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add criterion" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Customize|Pause) criterion/ }).filter({ visible: true })).toHaveCount(0);
  await page.goto("/systems/grade-school-math/benches");
  await expect(page.getByRole("link", { name: "New bench" })).toBeHidden();
  await page.goto("/models");
  await expect(page.getByRole("button", { name: "Add model" })).toBeHidden();

  const launch = actionIds().find((a) => a.name === "launchBenchAction");
  expect(launch, "launchBenchAction in the build's action manifest").toBeTruthy();
  const before = countBenches();
  const r = await callAction(context, launch!.id, [{ systemId: "grade-school-math", promptName: "solver" }]);
  expect(r.text).toContain('"code":"forbidden"');
  expect(r.text).toContain("This needs the editor role; you are signed in as viewer.");
  expect(countBenches()).toBe(before);
  await context.close();
});

test("a viewer opening an editor's page by URL is told it needs the editor role (no form to fail on submit)", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await signIn(page, VIEWER);
  for (const url of [
    "/systems/grade-school-math/benches/new",
    "/systems/grade-school-math/prompts/solver/edit",
    "/systems/grade-school-math/datasets/upload",
    "/systems/grade-school-math/datasets/upload/1",
    "/systems/grade-school-math/library/generate",
  ]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { name: "This page needs the editor role" }), url).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "needs the editor role" }), url).toContainText("you are signed in as viewer.");
    await expect(page.locator("main form"), url).toHaveCount(0);
  }
  // The prompt's default checks are listed, not editable.
  await page.goto("/systems/grade-school-math/prompts/solver");
  await expect(page.getByRole("heading", { name: "Default checks of solver" })).toBeVisible();
  await expect(page.getByText("Changing them needs the editor role.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save default checks" })).toHaveCount(0);
  await context.close();
});

test("sign-in's next path cannot leave the site: /%09/example.org lands on this server", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  const left: string[] = [];
  page.on("request", (r) => {
    if (r.isNavigationRequest() && !r.url().startsWith(team.url)) left.push(r.url());
  });
  await page.goto("/sign-in?next=/%09/example.org");
  await page.getByLabel("E-mail").fill(VIEWER.email);
  await page.getByLabel("Password").fill(VIEWER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText(VIEWER.email);
  expect(new URL(page.url()).origin).toBe(team.url);
  expect(left).toEqual([]);
  await context.close();
});

test("a sign-in submitted before the page's script runs does not put the password in the URL", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: team.url, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(VIEWER.email);
  await page.getByLabel("Password").fill(VIEWER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForLoadState();
  expect(page.url()).not.toContain("password");
  expect(page.url()).not.toContain(encodeURIComponent(VIEWER.password));
  await context.close();
});

test("better-auth's admin endpoints are not served, even to an admin: no impersonation, no role change past the Users page", async ({ browser }) => {
  const context = await client(browser);
  await signIn(await context.newPage(), ADMIN);
  const db = new Database(team.dbFile, { readonly: true, fileMustExist: true });
  const ids = Object.fromEntries((db.prepare("SELECT email, id FROM users").all() as { email: string; id: string }[]).map((u) => [u.email, u.id]));
  db.close();
  const post = (path: string, data: unknown) => context.request.post(path, { data, headers: { Origin: team.url } }).then((r) => r.status());
  expect(await post("/api/auth/admin/impersonate-user", { userId: ids[EDITOR.email] })).toBe(404);
  expect(await post("/api/auth/admin/set-role", { userId: ids[ADMIN.email], role: "viewer" })).toBe(404);
  expect(await post("/api/auth/admin/create-user", { email: "x@example.com", password: "x-password-0001", name: "x", role: "admin" })).toBe(404);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${ADMIN.email} · admin`);
  await context.close();
});

test("a viewer calling each action directly is refused by every one but their own account's", async ({ browser }) => {
  const context = await client(browser);
  await signIn(await context.newPage(), VIEWER);
  const own = new Set(["signOutEverywhereAction", "createTokenAction", "revokeTokenAction"]);
  const actions = actionIds().filter((a) => !own.has(a.name));
  expect(actions.length).toBeGreaterThan(30);
  const notRefused: string[] = [];
  for (const a of actions) {
    const r = await callAction(context, a.id, ["grade-school-math", {}]);
    if (!r.text.includes('"code":"forbidden"')) notRefused.push(`${a.file} ${a.name}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  expect(notRefused).toEqual([]);
  await context.close();
});

test("an editor launches a bench", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await signIn(page, EDITOR);
  await page.goto("/systems/grade-school-math/benches");
  await page.getByRole("link", { name: "New bench" }).click();
  const form = page.locator("form").filter({ hasText: "New bench" });
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/benches\/\d+$/);
  await expect(page.getByRole("region", { name: "Progress" }).getByText(/^finished$/)).toBeVisible({ timeout: 60_000 });
  // Editors do not manage model configurations (admin-only): no controls, and the server refuses.
  await page.goto("/models");
  await expect(page.getByRole("button", { name: "Add model" })).toBeHidden();
  const create = actionIds().find((a) => a.name === "createModelConfigAction")!;
  expect((await callAction(context, create.id, [{}])).text).toContain("This needs the admin role; you are signed in as editor.");
  await context.close();
});

test("sign-out ends the session on the server: the old cookie, replayed, is refused", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await signIn(page, EDITOR);
  const stolen = await context.cookies();
  expect(stolen.map((c) => c.name)).toContain("better-auth.session_token");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  const attacker = await client(browser);
  await attacker.addCookies(stolen);
  const res = await attacker.request.get("/models", { headers: { Accept: "text/html" }, maxRedirects: 0 });
  expect(res.status()).toBe(307);
  expect(res.headers()["location"]).toContain("/sign-in");
  const launch = actionIds().find((a) => a.name === "launchBenchAction")!;
  expect((await callAction(attacker, launch.id, [{}])).status).toBe(401);
  await attacker.close();
  await context.close();
});

test("an admin adds a user (one-time password), changes their role and signs them out everywhere", async ({ browser }) => {
  const admin = await client(browser);
  const page = await admin.newPage();
  await signIn(page, ADMIN);
  await page.getByRole("link", { name: "Users" }).click();
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("E-mail").fill("new@example.com");
  await form.getByLabel("Role").selectOption("editor");
  await form.getByRole("button", { name: "Add user" }).click();
  const password = (await page.getByTestId("one-time-password").textContent())!.trim();
  expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

  const newcomer = await client(browser);
  const theirPage = await newcomer.newPage();
  await signIn(theirPage, { email: "new@example.com", password });
  await expect(theirPage.getByTestId("signed-in-as")).toHaveText("new@example.com · editor");
  // They replace the one-time password; it stops working.
  await theirPage.getByRole("link", { name: "Tokens" }).click();
  await theirPage.getByLabel("Current password").fill(password);
  await theirPage.getByLabel("New password").fill("newcomer-password-0001");
  await theirPage.getByRole("button", { name: "Change password" }).click();
  await expect(theirPage.getByText("Password changed; your other sessions were signed out.")).toBeVisible();
  const signInWith = (pw: string) =>
    newcomer.request
      .post("/api/auth/sign-in/email", { data: { email: "new@example.com", password: pw }, headers: { Origin: team.url } })
      .then((r) => r.status());
  expect(await signInWith(password)).toBe(401);
  expect(await signInWith("newcomer-password-0001")).toBe(200);

  await page.reload();
  const row = page.getByTestId("user-new@example.com");
  await row.getByLabel("Role of new@example.com").selectOption("viewer");
  await expect(page.getByText("new@example.com is now viewer")).toBeVisible();
  await theirPage.reload();
  await expect(theirPage.getByTestId("signed-in-as")).toHaveText("new@example.com · viewer");

  await row.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText("Signed new@example.com out everywhere")).toBeVisible();
  await theirPage.goto("/");
  await expect(theirPage).toHaveURL(/\/sign-in/);
  await newcomer.close();
  await admin.close();
});

test("API tokens: shown once, stored hashed, scoped, and refused once revoked", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await signIn(page, EDITOR);
  await page.getByRole("link", { name: "Tokens" }).click();
  await page.getByLabel("Name").fill("ci-read");
  await page.getByLabel("Scope").selectOption("read");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^bw_[A-Za-z0-9_-]{43}$/);
  const db = new Database(team.dbFile, { readonly: true, fileMustExist: true });
  const stored = db.prepare("SELECT token_hash AS h FROM api_tokens WHERE name = 'ci-read'").get() as { h: string };
  db.close();
  expect(stored.h).toMatch(/^[0-9a-f]{64}$/);
  expect(stored.h).not.toContain(token.slice(3));

  const ci = await browser.newContext({ baseURL: team.url });
  const auth = { Authorization: `Bearer ${token}` };
  expect((await ci.request.get("/api/benches/1/export?format=json", { headers: auth })).status()).toBe(200);
  // A read token cannot write, even for an editor.
  const upload = await ci.request.post("/api/systems/grade-school-math/uploads?name=x.csv", { headers: auth, data: "q,a\n1,2\n" });
  expect(upload.status()).toBe(403);

  await page.getByTestId("token-ci-read").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByTestId("token-ci-read")).toContainText("revoked");
  expect((await ci.request.get("/api/benches/1/export?format=json", { headers: auth })).status()).toBe(401);
  await ci.close();
  await context.close();
});

test("OpenID Connect: a user an admin added signs in through the provider", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Test SSO" }).click();
  // oidc-provider's development login and consent pages.
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(SSO_USER.email);
  await page.locator('input[name="password"]').fill("anything");
  // Sign in, then consent (each a form on the provider) until the provider sends the browser back.
  for (let i = 0; i < 3 && page.url().startsWith(idp.issuer); i++) {
    const before = page.url();
    await page.locator('button[type="submit"]').first().click();
    await page.waitForURL((u) => u.href !== before);
  }
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${SSO_USER.email} · viewer`);
  await context.close();
});

test("OpenID Connect: an e-mail the provider has not verified does not sign in as the user who has it (no account takeover)", async ({ browser }) => {
  const context = await client(browser);
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Test SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(`unverified:${ADMIN.email}`);
  await page.locator('input[name="password"]').fill("anything");
  for (let i = 0; i < 3 && page.url().startsWith(idp.issuer); i++) {
    const before = page.url();
    await page.locator('button[type="submit"]').first().click();
    await page.waitForURL((u) => u.href !== before);
  }
  await expect(page).toHaveURL(/\/sign-in\?/);
  await expect(page.getByText(/^Single sign-on did not sign you in \(account_not_linked\)/)).toBeVisible();
  expect((await context.request.get("/api/auth/get-session").then((r) => r.json())) as unknown).toBeNull();
  await context.close();
});

test("brute-force sign-in is rate-limited", async ({ browser }) => {
  const context = await client(browser, "10.9.9.9");
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await context.request.post("/api/auth/sign-in/email", {
      data: { email: ADMIN.email, password: `guess-${i}-xxxxxxxx` },
      headers: { Origin: team.url },
    });
    statuses.push(r.status());
  }
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(statuses.slice(10)).toEqual([429, 429]);
  // Even the right password waits out the window.
  const right = await context.request.post("/api/auth/sign-in/email", {
    data: { email: ADMIN.email, password: ADMIN.password },
    headers: { Origin: team.url },
  });
  expect(right.status()).toBe(429);
  // Another client is not locked out.
  const other = await client(browser, "10.9.9.10");
  const ok = await other.request.post("/api/auth/sign-in/email", { data: { email: ADMIN.email, password: ADMIN.password }, headers: { Origin: team.url } });
  expect(ok.status()).toBe(200);
  await other.close();
  await context.close();
});
