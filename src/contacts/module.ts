/** The contacts module: the workspace's contacts and those discovered from the contact source. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { contactRoutes } from './routes.js';

export const contactsModule: WorkspaceModule = { routes: contactRoutes };
