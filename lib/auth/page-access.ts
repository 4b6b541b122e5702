/**
 * Whether a signed-in role may open a page that only changes things (issue 19): launching a bench,
 * editing a prompt, uploading a dataset, generating cases. The actions refuse a viewer anyway; the
 * page says so up front instead of showing a form that fails on submit.
 */
import { roleAtLeast, type Role } from "./roles";

/** What the page shows instead of its content. */
export interface PageRefusal {
  title: string;
  message: string;
}

/**
 * Null when `actor` may open the page, else the refusal to show.
 * @param actor the signed-in actor (null: no session, e.g. a request with only an API token)
 * @param needs the least role the page's actions need
 * @param what what the page does, as the subject of a sentence ("Launching a bench")
 */
export function pageRefusal(actor: { role: Role } | null, needs: Role, what: string): PageRefusal | null {
  if (actor && roleAtLeast(actor.role, needs)) return null;
  const title = `This page needs the ${needs} role`;
  if (!actor) return { title, message: `${what} needs the ${needs} role: sign in first.` };
  return { title, message: `${what} needs the ${needs} role; you are signed in as ${actor.role}. Ask an admin to change your role on the Users page.` };
}
