/** The deals module: the pipeline of deals, their notes and stage history. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { dealRoutes } from './routes.js';

export const dealsModule: WorkspaceModule = { routes: dealRoutes };
