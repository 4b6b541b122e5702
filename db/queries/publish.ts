/**
 * Publishing a code release into the test library (issue #6 `benchwork publish`), in ONE
 * transaction: all or nothing.
 *
 * - Target prompts (see lib/suite/library-content.ts `planPrompts`) are created when missing, with
 *   the eval's system prompt and tool schemas; existing prompts are never changed.
 * - A case id not in the library becomes a new case with source `code` and origin
 *   `{ kind: "code", file, row, release, contentHash }`.
 * - A case already published gets a new case revision only when its code changed since the last
 *   publish (the origin's `contentHash`), and only when the content differs from its current
 *   revision; otherwise nothing but its origin (file, row, release) is updated. Edits made in the
 *   library are kept until the code itself changes.
 * - Live `code` cases of the system that are not in the release are listed (`disappeared`) and
 *   left as they are: never paused, removed or changed.
 * - Case ids are unique within a prompt's library (issue 15): a case id used by a case of the
 *   target prompt that is not from code is a conflict: nothing is written, and the error lists
 *   every conflict. The same id in another prompt or system is another case.
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { first } from "../rows";
import { transaction } from "../transaction";
import type { Tx } from "../write-transaction";
import { caseRevisions, cases, promptRevisions, prompts, systems } from "../schema";
import type { CaseOrigin } from "./cases";
import type { CaseContent } from "@/lib/library/case-content";
import { decodeContent, encodeDetails, sameContent } from "@/lib/library/content-codec";
import { LibraryError } from "@/lib/library/errors";
import { caseContentOf, libraryContentHash, planPrompts } from "@/lib/suite/library-content";
import type { Release } from "@/lib/suite/types";
import { authorColumnsOf, type Author } from "@/lib/audit/author";
import { recordActivityTx } from "./activity";

/** The origin stored with a published case: the code origin plus the hash of the content the code gave. */
export type CodeOrigin = Extract<CaseOrigin, { kind: "code" }> & { contentHash?: string; eval?: string };

/** What to publish where. */
export interface PublishInput {
  systemId: string;
  release: Release;
  /** Put every case into this prompt instead of one prompt per eval id. */
  promptName?: string;
  /** Who publishes (issue 19): on the new revisions and in the activity. */
  author?: Author | null;
}

/** A case of the library that the release no longer has (left untouched). */
export interface DisappearedCase {
  caseKey: string;
  promptName: string;
  status: "active" | "paused";
  file: string | null;
  row: number | null;
}

/** What publishing did. Case ids in release order. */
export interface PublishReport {
  systemId: string;
  release: string;
  promptsCreated: string[];
  created: string[];
  revised: { caseKey: string; revision: number }[];
  unchanged: string[];
  disappeared: DisappearedCase[];
  /** Things the user should know (a case left in another prompt, an edit replaced, a prompt lacking tools). */
  warnings: string[];
}

async function insertRevision(tx: Tx, caseId: number, number: number, content: CaseContent, now: number, author: Author | null | undefined): Promise<number> {
  const [rev] = await tx
    .insert(caseRevisions)
    .values({ caseId, number, input: content.input, expected: content.expected, details: encodeDetails(content), createdAt: now, ...authorColumnsOf(author) })
    .returning({ id: caseRevisions.id });
  return rev.id;
}

function parseOrigin(text: string | null): CodeOrigin | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as CaseOrigin;
    return o.kind === "code" ? (o as CodeOrigin) : null;
  } catch {
    return null;
  }
}

/**
 * Publishes a release into a system's library (see module doc).
 * @returns what was created, revised, left unchanged and what disappeared from the code
 * @throws LibraryError `not_found` for an unknown system; `duplicate_case_id` listing every case id
 *   held by a non-code case or by another system (nothing is written)
 */
export async function publishRelease(db: Db, input: PublishInput): Promise<PublishReport> {
  const { release, systemId } = input;
  const plan = planPrompts(release, input.promptName);
  return transaction(db, async (tx) => {
    const system = await first(tx.select({ id: systems.id }).from(systems).where(eq(systems.id, systemId)));
    if (!system) throw new LibraryError("not_found", `System "${systemId}" does not exist. Create it in the app first, or choose another --system.`);
    const now = Date.now();
    const report: PublishReport = {
      systemId,
      release: release.contentHash,
      promptsCreated: [],
      created: [],
      revised: [],
      unchanged: [],
      disappeared: [],
      warnings: [],
    };

    // Conflicts first: nothing is written when a case id belongs to something else.
    const conflicts: string[] = [];
    const existing = new Map<string, typeof cases.$inferSelect & { promptName: string }>();
    // The live cases holding the release's ids, read in chunks (one query per 500 ids, not per case).
    const keys = [...new Set(release.cases.map((c) => c.id))];
    const holders = new Map<string, { c: typeof cases.$inferSelect; promptName: string }[]>();
    for (let i = 0; i < keys.length; i += 500) {
      const found = await tx
        .select({ c: cases, promptName: prompts.name })
        .from(cases)
        .innerJoin(prompts, eq(prompts.id, cases.promptId))
        .where(and(eq(cases.systemId, systemId), inArray(cases.caseKey, keys.slice(i, i + 500)), isNull(cases.removedAt)))
        .orderBy(asc(cases.id));
      for (const r of found) {
        const list = holders.get(r.c.caseKey);
        if (list) list.push(r);
        else holders.set(r.c.caseKey, [r]);
      }
    }
    for (const c of release.cases) {
      const rows = holders.get(c.id) ?? [];
      // The case published earlier (it stays in its prompt), else whatever holds the id in the target prompt.
      const code = rows.find((r) => r.c.source === "code");
      const blocking = rows.find((r) => r.c.source !== "code" && r.promptName === plan.promptOf.get(c.id));
      if (code) existing.set(c.id, { ...code.c, promptName: code.promptName });
      else if (blocking) conflicts.push(`"${c.id}" is used by a ${blocking.c.source} case of prompt "${blocking.promptName}"`);
    }
    if (conflicts.length > 0) {
      throw new LibraryError(
        "duplicate_case_id",
        `Case ids already taken in the library (nothing was published): ${conflicts.join("; ")}. Rename these cases in the code.`,
      );
    }

    // Target prompts: existing ones as they are, missing ones created.
    const promptIds = new Map<string, { id: number; systemPrompt: string; tools: Set<string> }>();
    for (const p of plan.prompts) {
      const row = await first(
        tx
          .select({ id: prompts.id, systemPrompt: promptRevisions.systemPrompt, tools: promptRevisions.tools })
          .from(prompts)
          .leftJoin(promptRevisions, eq(promptRevisions.id, prompts.currentRevisionId))
          .where(and(eq(prompts.systemId, systemId), eq(prompts.name, p.name))),
      );
      if (row) {
        const have = new Set((JSON.parse(row.tools ?? "[]") as { name: string }[]).map((t) => t.name));
        const missing = p.tools.map((t) => t.name).filter((n) => !have.has(n));
        if (missing.length)
          report.warnings.push(
            `prompt "${p.name}" has no definition of tool${missing.length === 1 ? "" : "s"} ${missing.join(", ")}; the app cannot expose ${missing.length === 1 ? "it" : "them"} to models`,
          );
        promptIds.set(p.name, { id: row.id, systemPrompt: row.systemPrompt ?? "", tools: have });
        continue;
      }
      const [{ id }] = await tx
        .insert(prompts)
        .values({ systemId, name: p.name, description: `Published from code: ${release.title} ${release.version}`, createdAt: now })
        .returning({ id: prompts.id });
      const [rev] = await tx
        .insert(promptRevisions)
        .values({
          promptId: id,
          number: 1,
          systemPrompt: p.systemPrompt,
          modelSettings: "{}",
          tools: JSON.stringify(p.tools),
          createdAt: now,
          ...authorColumnsOf(input.author),
        })
        .returning({ id: promptRevisions.id });
      await tx.update(prompts).set({ currentRevisionId: rev.id }).where(eq(prompts.id, id));
      promptIds.set(p.name, { id, systemPrompt: p.systemPrompt, tools: new Set(p.tools.map((t) => t.name)) });
      report.promptsCreated.push(p.name);
    }

    for (const c of release.cases) {
      const targetName = plan.promptOf.get(c.id)!;
      const target = promptIds.get(targetName)!;
      const old = existing.get(c.id);
      const promptSystem = old ? (promptIds.get(old.promptName)?.systemPrompt ?? target.systemPrompt) : target.systemPrompt;
      const content = caseContentOf(c, promptSystem);
      const hash = libraryContentHash(content);
      const origin: CodeOrigin = {
        kind: "code",
        file: c.source.file,
        ...(c.source.row !== undefined ? { row: c.source.row } : {}),
        release: release.contentHash,
        contentHash: hash,
        eval: c.evalId,
      };
      if (!old) {
        const [{ id }] = await tx
          .insert(cases)
          .values({
            caseKey: c.id,
            systemId,
            promptId: target.id,
            source: "code",
            status: "active",
            origin: JSON.stringify(origin),
            revisionNumber: 1,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: cases.id });
        const revId = await insertRevision(tx, id, 1, content, now, input.author);
        await tx.update(cases).set({ currentRevisionId: revId }).where(eq(cases.id, id));
        report.created.push(c.id);
        continue;
      }
      if (old.promptId !== target.id)
        report.warnings.push(`case "${c.id}" stays in prompt "${old.promptName}" (this publish targets "${targetName}"); cases do not move between prompts`);
      const before = parseOrigin(old.origin);
      const cur = (await first(tx.select().from(caseRevisions).where(eq(caseRevisions.id, old.currentRevisionId!))))!;
      const current = decodeContent(cur.input, cur.expected, cur.details);
      const codeChanged = before?.contentHash === undefined ? true : before.contentHash !== hash;
      if (!codeChanged || sameContent(current, content)) {
        await tx
          .update(cases)
          .set({ origin: JSON.stringify(origin) })
          .where(eq(cases.id, old.id));
        report.unchanged.push(c.id);
        continue;
      }
      if (before?.contentHash !== undefined && libraryContentHash(current) !== before.contentHash) {
        report.warnings.push(
          `case "${c.id}" was edited in the library since it was last published; its code changed too, so the code's version is now revision ${old.revisionNumber + 1} (the edit stays in revision ${old.revisionNumber})`,
        );
      }
      if (old.status === "paused") report.warnings.push(`case "${c.id}" is paused in the library; its new revision stays paused`);
      const number = old.revisionNumber + 1;
      const revId = await insertRevision(tx, old.id, number, content, now, input.author);
      await tx
        .update(cases)
        .set({ currentRevisionId: revId, revisionNumber: number, updatedAt: now, origin: JSON.stringify(origin) })
        .where(eq(cases.id, old.id));
      report.revised.push({ caseKey: c.id, revision: number });
    }

    const ids = new Set(release.cases.map((c) => c.id));
    const live = await tx
      .select({ caseKey: cases.caseKey, status: cases.status, origin: cases.origin, promptName: prompts.name })
      .from(cases)
      .innerJoin(prompts, eq(prompts.id, cases.promptId))
      .where(and(eq(cases.systemId, systemId), eq(cases.source, "code"), isNull(cases.removedAt)))
      .orderBy(cases.id);
    for (const r of live) {
      if (ids.has(r.caseKey)) continue;
      const o = parseOrigin(r.origin);
      report.disappeared.push({ caseKey: r.caseKey, promptName: r.promptName, status: r.status, file: o?.file ?? null, row: o?.row ?? null });
    }
    await recordActivityTx(
      tx,
      input.author,
      {
        action: "release.publish",
        subjectType: "system",
        subjectId: systemId,
        systemId,
        detail: `${release.title} ${release.version}: ${report.created.length} new, ${report.revised.length} revised`,
      },
      now,
    );
    return report;
  });
}
