/** The contacts aggregate: the workspace's contacts and those discovered from the contact source. */
import type { Aggregate } from '../compose/aggregate.js';
import { contactRoutes } from './routes.js';

export const contacts: Aggregate = { routes: contactRoutes };
