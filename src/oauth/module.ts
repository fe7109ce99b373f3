/** The oauth module: the assistant connector's clients, grants and tokens. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { oauthMigrations } from './tables.js';

export const oauthModule: WorkspaceModule = { migrations: oauthMigrations };
