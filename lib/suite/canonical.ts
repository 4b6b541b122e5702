/**
 * Canonical JSON and content hashes of releases (issue #6: "compiling the same sources twice gives
 * the same release (content hash)").
 */
import { createHash } from "node:crypto";

/**
 * JSON text with object keys sorted (code-unit order) at every level and no whitespace; `undefined`
 * object values are left out (as `JSON.stringify` does), arrays keep their order.
 * @throws TypeError for values JSON cannot hold (functions, bigint, non-finite numbers, cycles)
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown): string => {
    if (v === null) return "null";
    switch (typeof v) {
      case "string":
      case "boolean":
        return JSON.stringify(v);
      case "number":
        if (!Number.isFinite(v)) throw new TypeError(`canonicalJson: ${v} is not JSON`);
        return JSON.stringify(v);
      case "object": {
        if (seen.has(v)) throw new TypeError("canonicalJson: cyclic value");
        seen.add(v);
        let out: string;
        if (Array.isArray(v)) out = `[${v.map((x) => (x === undefined ? "null" : walk(x))).join(",")}]`;
        else {
          const keys = Object.keys(v as object)
            .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
            .sort();
          out = `{${keys.map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k])}`).join(",")}}`;
        }
        seen.delete(v);
        return out;
      }
      default:
        throw new TypeError(`canonicalJson: a ${typeof v} is not JSON`);
    }
  };
  return walk(value);
}

/** SHA-256 of a text's UTF-8 bytes, as 64 lowercase hex characters. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `sha256:` + the SHA-256 of the canonical JSON of `value` (see {@link canonicalJson}). */
export function contentHash(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
