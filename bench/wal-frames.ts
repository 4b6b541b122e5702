/**
 * What a SQLite run wrote to the WAL, commit by commit (issue #5's ≤ 5 KB written per trial): each
 * commit appends one frame (a whole page, 4 KB) per page it changed, so the bytes written per trial
 * are the frames per commit × page size ÷ trials per commit. `bench/runner.ts --wal-frames` holds a
 * read snapshot open from the launch (no checkpoint can restart the WAL meanwhile), then reads the
 * frames appended since and names each page's table or index (SQLite's `dbstat`).
 * WAL format: https://www.sqlite.org/fileformat2.html#the_write_ahead_log (32-byte header with the
 * page size at 8 and the salts at 16; each frame a 24-byte header — page number at 0, the database
 * size after a commit frame (0 otherwise) at 4, the salts at 8 — and the page).
 */
import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";

/** The frames of the WAL's current generation (those with the header's salts), each a page number and whether it ends a commit. */
function frames(walFile: string): { page: number; commit: boolean }[] {
  const w = readFileSync(walFile);
  if (w.length < 32) return [];
  const pageSize = w.readUInt32BE(8);
  const salt1 = w.readUInt32BE(16);
  const salt2 = w.readUInt32BE(20);
  const out: { page: number; commit: boolean }[] = [];
  for (let off = 32; off + 24 + pageSize <= w.length; off += 24 + pageSize) {
    if (w.readUInt32BE(off + 8) !== salt1 || w.readUInt32BE(off + 12) !== salt2) break;
    out.push({ page: w.readUInt32BE(off), commit: w.readUInt32BE(off + 4) !== 0 });
  }
  return out;
}

/** How many frames the WAL holds now (call with a read snapshot open, so they stay). */
export function walFrameCount(walFile: string): number {
  return frames(walFile).length;
}

/** Commits since frame `from`, with per table/index the pages each rewrote on average. */
export function walCommits(
  walFile: string,
  from: number,
  db: Pick<Database.Database, "prepare">,
): { commits: number; frames: number; byName: [string, number][] } {
  const names = new Map((db.prepare("SELECT name, pageno FROM dbstat").all() as { name: string; pageno: number }[]).map((r) => [r.pageno, r.name]));
  const perName = new Map<string, number>();
  let commits = 0;
  let count = 0;
  for (const f of frames(walFile).slice(from)) {
    count++;
    const name = names.get(f.page) ?? (f.page === 1 ? "page 1 (header)" : "free or moved page");
    perName.set(name, (perName.get(name) ?? 0) + 1);
    if (f.commit) commits++;
  }
  const byName = [...perName].sort((a, b) => b[1] - a[1]).map(([k, v]): [string, number] => [k, commits ? v / commits : 0]);
  return { commits, frames: count, byName };
}
