import { describe, expect, it } from "vitest";
import { pageRefusal } from "./page-access";

describe("pageRefusal", () => {
  it("lets a role at least the page's through", () => {
    expect(pageRefusal({ role: "editor" }, "editor", "Launching a bench")).toBeNull();
    expect(pageRefusal({ role: "admin" }, "editor", "Launching a bench")).toBeNull();
  });
  it("tells a viewer which role the page needs and who can grant it", () => {
    expect(pageRefusal({ role: "viewer" }, "editor", "Launching a bench")).toEqual({
      title: "This page needs the editor role",
      message: "Launching a bench needs the editor role; you are signed in as viewer. Ask an admin to change your role on the Users page.",
    });
  });
  it("asks a visitor with no session (e.g. an API token on a page) to sign in", () => {
    expect(pageRefusal(null, "editor", "Editing a prompt")).toEqual({
      title: "This page needs the editor role",
      message: "Editing a prompt needs the editor role: sign in first.",
    });
  });
});
