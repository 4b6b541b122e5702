/**
 * The three roles as better-auth's admin plugin sees them. Benchwork's own checks go through
 * `requireRole` (server/auth/actor.ts); these statements only let the plugin accept the role names.
 */
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";

const ac = createAccessControl(defaultStatements);

/** Access control and role table for the admin plugin. */
export const accessControl = {
  ac,
  roles: {
    admin: ac.newRole({ ...adminAc.statements }),
    editor: ac.newRole({ user: [], session: [] }),
    viewer: ac.newRole({ user: [], session: [] }),
  },
};
