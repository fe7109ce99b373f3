/** Every /api/v1 operation, in documentation order. */
import type { AnyRoute } from './route-def.js';
import { accountRoutes } from './routes/accounts.js';
import { contactRoutes } from './routes/contacts.js';
import { dealRoutes } from './routes/deals.js';
import { outcomeRoutes } from './routes/outcomes.js';
import { outreachRoutes } from './routes/outreach.js';
import { profileRoutes } from './routes/profile.js';
import { reportRoutes } from './routes/reports.js';
import { walletRoutes } from './routes/wallet.js';
import { watchRoutes } from './routes/watches.js';
import { webhookRoutes } from './routes/webhooks.js';

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
