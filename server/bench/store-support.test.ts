import { expect, it } from "vitest";
import { benches } from "@/db/schema";
import { describeStores } from "@/db/test-support/stores";
import { LOCAL_ACTOR } from "@/server/auth/actor-core";
import { launchBenchRun } from "@/server/api/benches";
import { BENCHES_NOT_ON_POSTGRES, assertBenchesRun } from "./store-support";

describeStores("where benches run", (store) => {
  if (store.kind === "postgres") {
    it("refuses a launch over the API on PostgreSQL before anything is stored, saying why", async () => {
      const db = store.db();
      const body = { system: "customer-support", prompt: "intent-router", candidates: ["recorded:x"] } as unknown as Parameters<typeof launchBenchRun>[1];
      await expect(launchBenchRun(db, body, LOCAL_ACTOR, {})).rejects.toMatchObject({ code: "not_allowed", message: BENCHES_NOT_ON_POSTGRES });
      expect(await db.select().from(benches)).toEqual([]);
    });
  } else {
    it("lets benches run on SQLite", () => {
      expect(() => assertBenchesRun(store.db())).not.toThrow();
    });
  }
});
