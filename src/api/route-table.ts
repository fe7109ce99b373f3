/** Every /api/v1 operation, in documentation order. */
import type { AnyRoute } from './route-def.js';
import { accountRoutes } from '../accounts/routes.js';
import { contactRoutes } from '../contacts/routes.js';
import { dealRoutes } from '../deals/routes.js';
import { outcomeRoutes } from '../accounts/outcome-routes.js';
import { outreachRoutes } from '../outreach/routes.js';
import { profileRoutes } from '../accounts/profile-routes.js';
import { reportRoutes } from '../reports/routes.js';
import { walletRoutes } from '../wallet/routes.js';
import { watchRoutes } from '../watches/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';

export const ROUTES: readonly AnyRoute[] = [
  ...accountRoutes,
  ...profileRoutes,
  ...outcomeRoutes,
  ...dealRoutes,
  ...contactRoutes,
  ...watchRoutes,
  ...walletRoutes,
  ...reportRoutes,
  ...outreachRoutes,
  ...webhookRoutes,
];

export const routeById = (operationId: string): AnyRoute | undefined => ROUTES.find((r) => r.operationId === operationId);

/** Fastify path syntax: `/webhooks/{id}` ⇒ `/webhooks/:id`. */
export const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');
