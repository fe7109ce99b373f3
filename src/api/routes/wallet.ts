/** Wallet and supervision reads (used through the assistant-connector sign-in; designed, unavailable). */
import { z } from 'zod';
import { defineRoute } from '../route-def.js';

export const walletRoutes = [
  defineRoute({
    operationId: 'get_wallet',
    method: 'GET',
    path: '/wallet',
    tag: 'Wallet',
    summary: 'Read wallet balance, usage and pricing',
    scope: 'read:wallet',
    kind: 'read',
    planned: 'available',
    response: z.object({
      object: z.literal('wallet'),
      balance: z.number(),
      currency: z.string(),
      usage_this_month: z.number(),
      pricing: z.array(z.object({ item: z.string(), unit_price: z.number() })),
    }),
  }),
  defineRoute({
    operationId: 'get_supervision',
    method: 'GET',
    path: '/supervision',
    tag: 'Wallet',
    summary: 'Read supervision data: approvals and standing rules',
    description: 'Supervision reads use scope read:wallet (approvals and standing rules are supervision data).',
    scope: 'read:wallet',
    kind: 'read',
    planned: 'available',
    response: z.object({
      object: z.literal('supervision'),
      approvals: z.array(z.object({ id: z.string(), action: z.string(), status: z.enum(['pending', 'approved', 'rejected']), requested_at: z.string() })),
      standing_rules: z.array(z.object({ id: z.string(), rule: z.string(), created_at: z.string() })),
    }),
  }),
];
