/** The workspaces module: the tenants every other table belongs to. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import './tables.js';

export const workspacesModule: WorkspaceModule = {};
