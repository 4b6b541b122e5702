import { describe, expect, it } from "vitest";
import { AuthError, requireRole, type Actor } from "./actor";

const actor = (role: Actor["role"], more: Partial<Actor> = {}): Actor => ({ userId: "u1", email: "u1@example.test", role, kind: "session", ...more });

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof AuthError ? e.code : "other";
  }
}

describe("requireRole", () => {
  it("refuses no actor as unauthenticated", () => {
    expect(codeOf(() => requireRole(null, "viewer"))).toBe("unauthenticated");
  });

  it("orders roles admin > editor > viewer", () => {
    expect(codeOf(() => requireRole(actor("viewer"), "editor"))).toBe("forbidden");
    expect(codeOf(() => requireRole(actor("editor"), "admin"))).toBe("forbidden");
    expect(requireRole(actor("editor"), "viewer").userId).toBe("u1");
    expect(requireRole(actor("admin"), "editor").role).toBe("admin");
  });

  it("needs the read scope for viewer reads and the run scope for anything more", () => {
    const readOnly = actor("editor", { kind: "token", scopes: ["read"] });
    expect(requireRole(readOnly, "viewer").kind).toBe("token");
    expect(codeOf(() => requireRole(readOnly, "editor"))).toBe("forbidden");
    const runOnly = actor("editor", { kind: "token", scopes: ["run"] });
    expect(codeOf(() => requireRole(runOnly, "viewer"))).toBe("forbidden");
    expect(requireRole(runOnly, "editor").kind).toBe("token");
    expect(codeOf(() => requireRole(actor("admin", { kind: "token", scopes: [] }), "viewer"))).toBe("forbidden");
  });
});
