/**
 * Model configurations. Keys are never stored: only the NAME of the environment variable that
 * holds one. A configuration used by a bench that is queued or running cannot be deleted.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { jsonText } from "../dialect";
import { first } from "../rows";
import { transaction } from "../transaction";
import { benchCandidates, benches, modelConfigs } from "../schema";
import { LibraryError } from "@/lib/library/errors";
import type { ModelConfig } from "@/lib/runtime/model-config";

/** A stored model configuration (`id` is the row id as a string, as ModelConfig expects). */
export type StoredModelConfig = ModelConfig & { id: string; createdAt: number; updatedAt: number };

type Row = typeof modelConfigs.$inferSelect;

function toConfig(r: Row): StoredModelConfig {
  const c: StoredModelConfig = { id: String(r.id), name: r.name, provider: r.provider, modelId: r.modelId, createdAt: r.createdAt, updatedAt: r.updatedAt };
  if (r.baseUrl) c.baseUrl = r.baseUrl;
  if (r.apiKeyEnv) c.apiKeyEnv = r.apiKeyEnv;
  if (r.temperature != null) c.temperature = r.temperature;
  if (r.maxOutputTokens != null) c.maxOutputTokens = r.maxOutputTokens;
  if (r.inputPricePerMTok != null) c.inputPricePerMTok = r.inputPricePerMTok;
  if (r.outputPricePerMTok != null) c.outputPricePerMTok = r.outputPricePerMTok;
  return c;
}

function columns(c: ModelConfig) {
  return {
    name: c.name,
    provider: c.provider,
    modelId: c.modelId,
    baseUrl: c.baseUrl ?? null,
    apiKeyEnv: c.apiKeyEnv ?? null,
    temperature: c.temperature ?? null,
    maxOutputTokens: c.maxOutputTokens ?? null,
    inputPricePerMTok: c.inputPricePerMTok ?? null,
    outputPricePerMTok: c.outputPricePerMTok ?? null,
  };
}

/** Every model configuration, by name. */
export async function listModelConfigs(db: Db): Promise<StoredModelConfig[]> {
  return (await db.select().from(modelConfigs).orderBy(asc(modelConfigs.name))).map(toConfig);
}

/** One configuration by id, or null. */
export async function getModelConfig(db: Db, id: number): Promise<StoredModelConfig | null> {
  const r = await first(db.select().from(modelConfigs).where(eq(modelConfigs.id, id)));
  return r ? toConfig(r) : null;
}

/** One configuration by its unique name, or null (the CLI's `model:NAME`). */
export async function getModelConfigByName(db: Db, name: string): Promise<StoredModelConfig | null> {
  const r = await first(db.select().from(modelConfigs).where(eq(modelConfigs.name, name)));
  return r ? toConfig(r) : null;
}

async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  const r = await first(db.select({ id: modelConfigs.id }).from(modelConfigs).where(eq(modelConfigs.name, name)));
  return Boolean(r && r.id !== exceptId);
}

/**
 * Saves a new configuration (validated by the caller with `modelConfigSchema`).
 * @throws LibraryError `validation` when the name is taken
 */
export async function createModelConfig(db: Db, c: ModelConfig): Promise<number> {
  if (await nameTaken(db, c.name))
    throw new LibraryError("validation", `A model configuration named "${c.name}" already exists.`, { name: "This name is taken." });
  const now = Date.now();
  const [row] = await db
    .insert(modelConfigs)
    .values({ ...columns(c), createdAt: now, updatedAt: now })
    .returning({ id: modelConfigs.id });
  return row.id;
}

/**
 * Updates a configuration. Benches keep the snapshot they pinned at launch, so editing never
 * changes a bench that ran.
 * @throws LibraryError `not_found`, or `validation` when the new name is taken
 */
export async function updateModelConfig(db: Db, id: number, c: ModelConfig): Promise<void> {
  if (!(await getModelConfig(db, id))) throw new LibraryError("not_found", `Model configuration #${id} does not exist.`);
  if (await nameTaken(db, c.name, id))
    throw new LibraryError("validation", `A model configuration named "${c.name}" already exists.`, { name: "This name is taken." });
  await db
    .update(modelConfigs)
    .set({ ...columns(c), updatedAt: Date.now() })
    .where(eq(modelConfigs.id, id));
}

/**
 * Deletes a configuration.
 * @throws LibraryError `not_allowed` when a queued or running bench uses it (its trials still need
 *   it); `not_found` when there is no such configuration
 */
export async function deleteModelConfig(db: Db, id: number): Promise<void> {
  await transaction(db, async (tx) => {
    const c = await first(tx.select().from(modelConfigs).where(eq(modelConfigs.id, id)));
    if (!c) throw new LibraryError("not_found", `Model configuration #${id} does not exist.`);
    const busy = await tx
      .select({ id: benches.id, title: benches.title })
      .from(benchCandidates)
      .innerJoin(benches, eq(benches.id, benchCandidates.benchId))
      .where(and(eq(benchCandidates.modelConfigId, id), inArray(benches.status, ["queued", "running"])));
    const judging = await tx
      .select({ id: benches.id, title: benches.title })
      .from(benches)
      .where(and(inArray(benches.status, ["queued", "running"]), sql`${jsonText(tx, benches.judge, "id")} = ${String(id)}`));
    const users = [...new Map([...busy, ...judging].map((b) => [b.id, b])).values()];
    if (users.length) {
      throw new LibraryError(
        "not_allowed",
        `"${c.name}" is used by ${users.length === 1 ? "a bench that has not finished" : `${users.length} benches that have not finished`} (${users.map((b) => `#${b.id} ${b.title}`).join(", ")}). Wait for it to finish or cancel it, then delete.`,
      );
    }
    // Finished benches keep their own snapshot; only the link goes.
    await tx.update(benchCandidates).set({ modelConfigId: null }).where(eq(benchCandidates.modelConfigId, id));
    await tx.delete(modelConfigs).where(eq(modelConfigs.id, id));
  });
}
