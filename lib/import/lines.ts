/**
 * Offset → 1-based line number for text that may mix `\n`, `\r\n` and lone `\r` line ends.
 * Queries in increasing offset order cost O(total text) overall; a smaller offset restarts.
 */
export class LineCounter {
  private offset = 0;
  private line = 1;

  /** @param text the text whose lines are counted */
  constructor(private readonly text: string) {}

  /**
   * @param offset UTF-16 offset into the text
   * @returns the 1-based line holding that offset
   */
  lineAt(offset: number): number {
    if (offset < this.offset) {
      this.offset = 0;
      this.line = 1;
    }
    const s = this.text;
    let line = this.line;
    for (let i = this.offset; i < offset && i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 10) line++;
      else if (c === 13 && s.charCodeAt(i + 1) !== 10) line++;
    }
    this.offset = offset;
    this.line = line;
    return line;
  }
}
