/**
 * Who made a change (issue 19), as stored beside it: a user id and e-mail, copied so they survive a
 * removed user. An actor (server/auth/actor.ts) is an Author; `local` in single-user mode.
 */
export interface Author {
  userId: string;
  email: string;
}

/**
 * The author columns of a revision row for `author`; none when unknown, so the insert leaves them
 * null and a write without an author names no column a database migrated only part-way lacks.
 */
export function authorColumnsOf(author: Author | null | undefined): { authorId?: string; authorEmail?: string } {
  return author ? { authorId: author.userId, authorEmail: author.email } : {};
}

/** How a list shows who made a row: the e-mail, "local" in single-user mode, "—" when not recorded. */
export function authorLabel(email: string | null | undefined): string {
  return email ?? "—";
}
