/**
 * The workspace aggregates, in documentation order: the /api/v1 route table and the background
 * tasks are concatenations of what they export (compose/aggregate.ts).
 */
import type { AnyRoute } from '../api/route-def.js';
import { accounts } from '../accounts/index.js';
import { contacts } from '../contacts/index.js';
import { deals } from '../deals/index.js';
import { ingest } from '../ingest/index.js';
import { outreach } from '../outreach/index.js';
import { reports } from '../reports/index.js';
import { wallet } from '../wallet/index.js';
import { watches } from '../watches/index.js';
import { webhooks } from '../webhooks/index.js';
import type { Aggregate } from './aggregate.js';

// The background tasks start in this order too: the ingest before the delivery it triggers.
export const AGGREGATES: readonly Aggregate[] = [accounts, deals, contacts, watches, wallet, reports, outreach, ingest, webhooks];

/** Every /api/v1 operation, in documentation order. */
export const ROUTES: readonly AnyRoute[] = AGGREGATES.flatMap((a) => a.routes ?? []);

export const routeById = (operationId: string): AnyRoute | undefined => ROUTES.find((r) => r.operationId === operationId);
