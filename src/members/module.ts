/** The members module: the people of a workspace, their roles, invitations, passwords and sign-in throttle. Its tables are opened with the others (compose/database.ts); it has no operation or task of its own. */
import type { WorkspaceModule } from '../api/workspace-module.js';

export const membersModule: WorkspaceModule = {};
