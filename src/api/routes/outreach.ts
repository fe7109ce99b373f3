/** Outreach cadences (designed as pilot-only; unavailable until implemented). */
import { z } from 'zod';
import { defineRoute } from '../route-def.js';
import { idParam } from '../schemas.js';

const Enrollment = z.object({
  object: z.literal('outreach_enrollment'),
  id: z.string(),
  store_id: z.string(),
  cadence_id: z.string(),
  status: z.enum(['active', 'stopped', 'completed']),
  created_at: z.string(),
  stopped_at: z.string().nullable(),
});

export const outreachRoutes = [
  defineRoute({
    operationId: 'enroll_outreach',
    method: 'POST',
    path: '/outreach/enrollments',
    tag: 'Outreach',
    summary: 'Enroll a store in an outreach cadence',
    scope: 'write:outreach',
    kind: 'write',
    planned: 'pilot',
    body: z.strictObject({ store_id: z.string().min(1), cadence_id: z.string().min(1), contact_id: z.string().optional() }),
    response: Enrollment,
    status: 201,
    problems: [400, 409, 422],
  }),
  defineRoute({
    operationId: 'stop_outreach',
    method: 'POST',
    path: '/outreach/enrollments/{id}/stop',
    tag: 'Outreach',
    summary: 'Stop a store in an outreach cadence',
    scope: 'write:outreach',
    kind: 'write',
    planned: 'pilot',
    params: idParam('enrollment'),
    response: Enrollment,
    problems: [400, 404, 409],
  }),
];
