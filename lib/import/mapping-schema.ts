/**
 * zod schemas of a column mapping, for shells (forms, server actions, CLI) that receive a mapping
 * from outside and must validate it (DESIGN.md §2: shells parse input with zod). Kept apart from
 * mapping.ts so that applying a mapping does not load zod.
 */
import { z } from "zod";
import { COLUMN_ROLES } from "./mapping";

/** zod schema of a `ColumnAssignment` (mapping.ts), for shells that receive a mapping from a form or the CLI. */
export const columnAssignmentSchema = z
  .object({
    column: z.string(),
    role: z.enum(COLUMN_ROLES),
    candidate: z.string().trim().min(1).optional(),
    variable: z.string().trim().min(1).optional(),
  })
  .refine((a) => a.role !== "actual_output" || a.candidate !== undefined, {
    message: "An actual-output column needs a candidate name",
    path: ["candidate"],
  })
  .refine((a) => a.role !== "variable" || a.variable !== undefined, {
    message: "A variable column needs a variable name",
    path: ["variable"],
  });

/** zod schema of a `ColumnMapping` (mapping.ts). Cross-column rules are checked by `validateMapping`. */
export const columnMappingSchema = z.array(columnAssignmentSchema);
