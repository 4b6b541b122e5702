/**
 * The role check of pages that only change things (issue 19), on the server: the page renders
 * {@link NeedsRole} instead of its form when the signed-in role is too low.
 */
import { pageRefusal, type PageRefusal } from "@/lib/auth/page-access";
import type { Role } from "@/lib/auth/roles";
import { currentActor } from "./actor";

/**
 * Null when the current request's actor has at least `needs`, else what to show instead.
 * @param what what the page does ("Launching a bench")
 */
export async function pageRoleRefusal(needs: Role, what: string): Promise<PageRefusal | null> {
  return pageRefusal(await currentActor(), needs, what);
}
