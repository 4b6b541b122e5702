/** Types of seed-command.mjs. */
/** The command that seeds the store: the seed bundle with node (production), or tsx on db/seed/cli.ts (`dev`). */
export declare function seedCommand(o: { dev: boolean; root: string }): Promise<[string, string[]]>;
