/**
 * Test support (db/queries/concurrent-edits.test.ts): the body of a thread that edits the case
 * library through the real query functions on its own connection, as a second app server or the
 * CLI would, while a bench runs on another connection. It adds a case, then saves a second
 * revision of it, and so on, yielding to its event loop between edits; failures are collected, not
 * thrown, so the test can name them.
 */
import type { MessagePort } from "node:worker_threads";
import { openDatabase } from "../../client";
import { addCase, saveCaseRevision } from "../cases";
import { emptyCaseContent } from "@/lib/library/case-content";

/** What the thread is told to do. */
export interface CaseEditsData {
  dbPath: string;
  systemId: string;
  promptId: number;
  /** Case IDs are `<prefix>-<n>`: unique per thread. */
  prefix: string;
  /** Edits to make: even ones add a case, odd ones save revision 2 of the case just added. */
  edits: number;
}

/** The thread's answer: how many edits succeeded and the error of each that failed. */
export interface CaseEditsResult {
  ok: number;
  failures: string[];
}

/** Waits for "go" on `port`, makes the edits, posts a {@link CaseEditsResult} and closes its connection. */
export function runCaseEdits(port: MessagePort | null, data: CaseEditsData): void {
  if (!port) throw new Error("runCaseEdits must run in a worker thread");
  const db = openDatabase(data.dbPath);
  port.once("message", async () => {
    const result: CaseEditsResult = { ok: 0, failures: [] };
    let caseId = 0;
    for (let i = 0; i < data.edits; i++) {
      try {
        if (i % 2 === 0) {
          const content = { ...emptyCaseContent(), input: `question ${data.prefix} ${i}`, expected: "an answer" };
          caseId = (await addCase(db, { systemId: data.systemId, promptId: data.promptId, caseKey: `${data.prefix}-${i}`, source: "custom", content })).id;
        } else {
          await saveCaseRevision(db, caseId, 1, {
            input: `question ${data.prefix} ${i} (edited)`,
            expected: "a better answer",
            notes: "",
            history: [],
            variables: [],
            context: [],
          });
        }
        result.ok++;
      } catch (e) {
        result.failures.push(`edit ${i}: ${(e as { code?: string }).code ?? ""} ${(e as Error).message}`);
      }
      // Let the other connections commit between two edits, as requests of a server would.
      await new Promise((r) => setImmediate(r));
    }
    db.$client.close();
    port.postMessage(result);
  });
  port.postMessage("ready");
}
