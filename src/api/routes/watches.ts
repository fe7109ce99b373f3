/** Managed, self-directed and client watches (designed; unavailable until the watch work implements them). */
import { z } from 'zod';
import { WATCH_HEALTH, WATCH_TYPES } from '../../watches/types.js';
import { defineRoute } from '../route-def.js';
import { Deleted, idParam, page, pageQuery } from '../schemas.js';

const Watch = z.object({
  object: z.literal('watch'),
  id: z.string(),
  type: z.enum(WATCH_TYPES),
  store_id: z.string(),
  client_name: z.string().nullable(),
  health: z.enum(WATCH_HEALTH),
  last_event_at: z.string().nullable(),
  created_at: z.string(),
});

const ManagedWatch = z.object({
  object: z.literal('managed_watch'),
  size: z.number().int(),
  health: z.enum(WATCH_HEALTH),
  status: z.enum(['active', 'cancelled', 'none']),
  recent_events: z.array(z.record(z.string(), z.unknown())),
  latest_brief_url: z.string().nullable(),
});

const common = { tag: 'Watches', planned: 'available' as const };

export const watchRoutes = [
  defineRoute({
    ...common,
    operationId: 'get_managed_watch',
    method: 'GET',
    path: '/watch/managed',
    summary: 'Read managed-watch state',
    scope: 'read:watch',
    kind: 'read',
    response: ManagedWatch,
  }),
  defineRoute({
    ...common,
    operationId: 'list_watches',
    method: 'GET',
    path: '/watches',
    summary: 'List self-directed and client watches with their health',
    scope: 'read:watch',
    kind: 'read',
    query: z.strictObject({ ...pageQuery, type: z.enum(WATCH_TYPES).optional() }),
    response: page(Watch),
    problems: [400],
  }),
  defineRoute({
    ...common,
    operationId: 'add_watch',
    method: 'POST',
    path: '/watches',
    summary: 'Add a self-directed or client watch',
    scope: 'write:watch',
    kind: 'write',
    body: z.strictObject({ type: z.enum(WATCH_TYPES), store_id: z.string().min(1), client_name: z.string().max(200).optional() }),
    response: Watch,
    status: 201,
    problems: [400, 409, 422],
  }),
  defineRoute({
    ...common,
    operationId: 'remove_watch',
    method: 'DELETE',
    path: '/watches/{id}',
    summary: 'Remove a self-directed or client watch',
    scope: 'write:watch',
    kind: 'write',
    params: idParam('watch'),
    response: Deleted('watch'),
    problems: [400, 404, 409],
  }),
];
