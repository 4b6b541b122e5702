/** " · by ana@example.com" beside a revision or bench time (issue 19); nothing when not recorded. */
export function AuthorNote({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  return <span data-testid="author"> · by {email}</span>;
}
