/** The members module: the people of a workspace, their roles, invitations, passwords and sign-in throttle. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { membersMigrations } from './tables.js';

export const membersModule: WorkspaceModule = { migrations: membersMigrations };
