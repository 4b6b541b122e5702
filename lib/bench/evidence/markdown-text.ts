/**
 * Plain text (labels, sentences holding labels) made safe for GitHub-flavoured Markdown in the
 * pull-request comment (`bench run --markdown`): a model named "gpt_4o*mini" must not turn into
 * emphasis, a "<!--" must not hide the rest of the comment, a "|" must not split a table cell.
 */

/**
 * Text outside code, on one line: Markdown's inline punctuation (\ * _ ~ ` [ ]) is backslash-escaped,
 * and a "<" that could open a tag or comment becomes "&lt;"; "p < 0.001" stays as written.
 */
export function markdownText(s: string): string {
  return s
    .replace(/\r?\n|\r/g, " ")
    .replace(/[\\*_~`[\]]/g, (c) => `\\${c}`)
    .replace(/<(?=[A-Za-z/!?])/g, "&lt;");
}

/** Text for a table cell: as {@link markdownText}, with "|" escaped too. */
export function markdownCell(s: string): string {
  return markdownText(s).replace(/\|/g, "\\|");
}
