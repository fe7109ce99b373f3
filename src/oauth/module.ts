/** The oauth module: the assistant connector's clients, grants and tokens. Its tables are opened with the others (compose/database.ts); it has no operation or task of its own. */
import type { WorkspaceModule } from '../api/workspace-module.js';

export const oauthModule: WorkspaceModule = {};
