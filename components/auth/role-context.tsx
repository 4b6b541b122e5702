"use client";

/**
 * The signed-in role, for hiding what a role cannot do (issue 19). Only a convenience: every action
 * and route checks the role on the server (server/auth/guard.ts).
 */
import { createContext, useContext } from "react";
import { roleAtLeast, type Role } from "@/lib/auth/roles";

const RoleContext = createContext<Role>("viewer");

/** Provides the role to the client components below (set once in the root layout). */
export function RoleProvider({ role, children }: { role: Role; children: React.ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

/** True when the signed-in role is at least `needs` (editor for editing, admin for admin things). */
export function useRoleAtLeast(needs: Role): boolean {
  return roleAtLeast(useContext(RoleContext), needs);
}

/** Renders its children only for a role of at least `role` (default editor). */
export function IfRole({ role = "editor", children }: { role?: Role; children: React.ReactNode }) {
  return useRoleAtLeast(role) ? <>{children}</> : null;
}
