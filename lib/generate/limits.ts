/**
 * The generator's limits, in a module of their own so forms (client code) can state them without
 * importing the generator.
 */

/** Most criteria or scenarios one batch may ask for. */
export const MAX_PER_BATCH = 50;
