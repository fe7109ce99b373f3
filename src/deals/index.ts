/** The deals aggregate: the pipeline of deals, their notes and stage history. */
import type { Aggregate } from '../compose/aggregate.js';
import { dealRoutes } from './routes.js';

export const deals: Aggregate = { routes: dealRoutes };
