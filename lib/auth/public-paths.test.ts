import { describe, expect, it } from "vitest";
import { isPublicPath, unauthenticatedMessage, unauthenticatedResponseKind } from "./public-paths";

describe("isPublicPath", () => {
  it("lets the sign-in page, better-auth's endpoints and static files through", () => {
    expect(isPublicPath("/sign-in")).toBe(true);
    expect(isPublicPath("/api/auth/sign-in/email")).toBe(true);
    expect(isPublicPath("/_next/static/chunks/app.js")).toBe(true);
  });
  it("keeps pages, actions' pages and the app's API behind sign-in", () => {
    expect(isPublicPath("/")).toBe(false);
    expect(isPublicPath("/models")).toBe(false);
    expect(isPublicPath("/sign-in/../models")).toBe(false);
    expect(isPublicPath("/api/benches/1/export")).toBe(false);
    expect(isPublicPath("/api/authx")).toBe(false);
    expect(isPublicPath("/_next/data/x.json")).toBe(false);
  });
});

describe("unauthenticatedResponseKind", () => {
  it("redirects a page load and refuses everything else with 401", () => {
    expect(unauthenticatedResponseKind({ method: "GET", accept: "text/html,*/*", isAction: false, isRsc: false })).toBe("redirect");
    expect(unauthenticatedResponseKind({ method: "POST", accept: "text/html", isAction: true, isRsc: false })).toBe("401");
    expect(unauthenticatedResponseKind({ method: "GET", accept: "*/*", isAction: false, isRsc: true })).toBe("401");
    expect(unauthenticatedResponseKind({ method: "GET", accept: "application/json", isAction: false, isRsc: false })).toBe("401");
  });
});

describe("unauthenticatedMessage", () => {
  it("says a presented API token was refused (the CLI prints this line), else asks to sign in", () => {
    expect(unauthenticatedMessage({ hasAuthorization: true })).toBe(
      "The API token was refused: it is unknown, revoked or expired (send it as `Authorization: Bearer bw_…`).",
    );
    expect(unauthenticatedMessage({ hasAuthorization: false })).toBe("Sign in first: this Benchwork server needs an account (no valid session or API token).");
  });
});
