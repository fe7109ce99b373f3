/**
 * The modules of the workspace half, in documentation order: the /api/v1 route table and the
 * background tasks are concatenations of what they declare (api/workspace-module.ts); their
 * migrations and event lists are found in their folders (compose/database.ts, compose/events.ts).
 * Adding a module is its import and its entry here.
 */
import { manifestActivations } from '../api/capabilities.js';
import type { DocumentedWebhooks } from '../api/openapi.js';
import type { AnyRoute } from '../api/route-def.js';
import type { WorkspaceModule } from '../api/workspace-module.js';
import { accountsModule } from '../accounts/module.js';
import { contactsModule } from '../contacts/module.js';
import { dealsModule } from '../deals/module.js';
import { ingestModule } from '../ingest/module.js';
import { membersModule } from '../members/module.js';
import { oauthModule } from '../oauth/module.js';
import { outreachModule } from '../outreach/module.js';
import { reportsModule } from '../reports/module.js';
import { walletModule } from '../wallet/module.js';
import { watchesModule } from '../watches/module.js';
import { webhooksModule } from '../webhooks/module.js';
import { EVENT_TYPES, EVENTS } from './events.js';
import { WEBHOOK_HEADERS, webhooksSection } from '../webhooks/openapi.js';

// The background tasks start in this order too: the ingest before the delivery it triggers.
export const MODULES: readonly WorkspaceModule[] = [
  membersModule,
  accountsModule,
  dealsModule,
  contactsModule,
  watchesModule,
  walletModule,
  reportsModule,
  outreachModule,
  ingestModule,
  webhooksModule(EVENT_TYPES),
  oauthModule,
];

/** Every /api/v1 operation, in documentation order. */
export const ROUTES: readonly AnyRoute[] = MODULES.flatMap((m) => m.routes ?? []);

export const routeById = (operationId: string): AnyRoute | undefined => ROUTES.find((r) => r.operationId === operationId);

/**
 * Whether an activation-gated operation can need `activation`: one an operation names (its
 * route's, or config/capabilities.json's), or an operation's id (what one without a name needs).
 */
export function activationNeeded(activation: string): boolean {
  return ROUTES.some((r) => r.activation === activation || r.operationId === activation) || manifestActivations().includes(activation);
}

/** The activations operations name, sorted. */
export const namedActivations = (): string[] => [...new Set([...ROUTES.flatMap((r) => (r.activation ? [r.activation] : [])), ...manifestActivations()])].sort();

/** The event messages openapi.json documents (the webhooks module's catalogue). */
export const documentedWebhooks = (): DocumentedWebhooks => ({ messages: webhooksSection(EVENTS), parameters: WEBHOOK_HEADERS });
