/**
 * Cutting long text visibly: what is kept is followed by a marker that says how long the text was,
 * so nobody mistakes a cut message, output or log for the whole of it.
 */

/** The marker appended to cut text, e.g. `… [truncated, 5,242,880 characters]` (the original length). */
export function truncationMarker(originalLength: number): string {
  return `… [truncated, ${originalLength.toLocaleString("en-US")} characters]`;
}

/**
 * `text` when it has at most `max` characters (UTF-16 code units), else its first `max` characters
 * (one less when the cut would split a surrogate pair) followed by {@link truncationMarker}.
 * @param max characters kept, ≥ 0
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return text.slice(0, end) + truncationMarker(text.length);
}
