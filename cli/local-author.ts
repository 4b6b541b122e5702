import type { Author } from "@/lib/audit/author";

/** Who the CLI acts as on a database file: the single-user `local` author, as the app's laptop mode. */
export const LOCAL_AUTHOR: Author = { userId: "local", email: "local" };
