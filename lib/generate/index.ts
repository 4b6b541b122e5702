/** The generator of criteria and scenarios (issue 17): see generate.ts. */
export { generateProposals, MAX_PER_BATCH, MAX_PERSONAS, type GenerateDeps } from "./generate";
export { GenerateError, type GenerateErrorCode } from "./structured";
export { GENERATOR_REVISION } from "./prompts";
export { textSimilarity, normaliseText, diversity, dropNearDuplicates, DEFAULT_DUPLICATE_THRESHOLD } from "./similarity";
export type * from "./types";
