/** Growth reports (designed as activation-gated; unavailable until implemented). */
import { z } from 'zod';
import { MONTH } from '../../month.js';
import { defineRoute } from '../route-def.js';
import { idParam } from '../schemas.js';

const GrowthReport = z.object({
  object: z.literal('growth_report'),
  id: z.string(),
  store_id: z.string(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
  url: z.string().nullable(),
  requested_at: z.string(),
});

export const reportRoutes = [
  defineRoute({
    operationId: 'request_growth_report',
    method: 'POST',
    path: '/reports/growth',
    tag: 'Reports',
    summary: 'Request a growth report for a store',
    scope: 'generate:reports',
    kind: 'report',
    planned: 'activation-gated',
    activation: 'growth_reports',
    body: z.strictObject({ store_id: z.string().min(1), month: z.string().regex(MONTH).optional() }),
    response: GrowthReport,
    status: 202,
    problems: [400, 409, 422],
  }),
  defineRoute({
    operationId: 'get_growth_report',
    method: 'GET',
    path: '/reports/growth/{id}',
    tag: 'Reports',
    summary: 'Read a requested growth report',
    scope: 'generate:reports',
    kind: 'read',
    planned: 'activation-gated',
    activation: 'growth_reports',
    params: idParam('growth report'),
    response: GrowthReport,
    problems: [404],
  }),
];
