/**
 * Content hashes used to pin evaluator code in a bench (so a bench records exactly which custom
 * evaluator code produced its results).
 */
import { createHash } from "node:crypto";

/**
 * SHA-256 of the code's UTF-8 bytes, as 64 lowercase hex characters.
 * @param code custom evaluator source, exactly as stored (no normalisation: any change changes the hash)
 */
export function codeHash(code: string): string {
  return createHash("sha256").update(code, "utf8").digest("hex");
}
