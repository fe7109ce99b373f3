/** The watches' request and response shapes (docs/watches.md). */
import { z } from 'zod';
import { storeId } from '../api/schemas.js';
import { ADDABLE_WATCH_TYPES, WATCH_ADD_MAX, WATCH_HEALTH, WATCH_STATUSES, WATCH_TYPES } from './types.js';

export const health = z.enum(WATCH_HEALTH).describe('healthy, degraded, failing or paused (cancelled); see docs/watches.md for the rules');

export const Watch = z.object({
  object: z.literal('watch'),
  id: z.string(),
  type: z.enum(WATCH_TYPES),
  client_name: z.string().nullable().describe("The client's name (client watches)"),
  capacity: z.number().int().nullable().describe('How many in-market accounts the managed watch holds; null for other watches'),
  status: z.enum(WATCH_STATUSES),
  store_count: z.number().int().describe('Stores the watch holds now'),
  health,
  health_reason: z.string().describe('Why, in plain words'),
  checked_month: z.string().nullable().describe('The latest ingested month of the last check (null: not checked yet)'),
  checked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const WatchEvent = z.object({
  object: z.literal('watch_event'),
  id: z.string(),
  watch_id: z.string(),
  month: z.string().describe('YYYY-MM'),
  store_id: z.string().nullable().describe('The store that changed; null for a change of the watch as a whole (health, staleness, capacity)'),
  domain: z.string().nullable(),
  kind: z.string().describe('A signal type (e.g. `traffic_down`), `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed`'),
  level: health.describe('The health the change points to: `healthy` for an informational change'),
  detail: z.string().describe('Plain words'),
  created_at: z.string(),
  ended_at: z
    .string()
    .nullable()
    .describe('When a later check of the same month no longer found it (null while it holds, and for `health_changed`); found again later, it is a new event'),
});

export const ManagedWatch = Watch.omit({ object: true, id: true, status: true }).extend({
  object: z.literal('managed_watch'),
  id: z.string().nullable().describe('null until the managed watch is started (resize_managed_watch)'),
  status: z.enum([...WATCH_STATUSES, 'none']).describe('`none` until the managed watch is started'),
  in_market_accounts: z.number().int().describe("The workspace's in-market accounts; more than the capacity degrades the watch"),
  recent_events: z.array(WatchEvent).describe('The five newest events'),
  latest_brief_url: z.string().nullable().describe('Path of the brief of the latest check'),
  created_at: z.string().nullable().describe('null until started'),
  updated_at: z.string().nullable(),
});

export const WatchReceipt = z.object({
  object: z.literal('watch_receipt'),
  id: z.string(),
  watch_id: z.string(),
  month: z.string().describe('The latest ingested month the check read'),
  run_id: z.string().describe("That month's run"),
  stores_checked: z.number().int(),
  store_ids: z.array(z.string()).describe('The stores checked'),
  health,
  health_reason: z.string(),
  checked_at: z.string(),
});

export const WatchStore = z.object({
  object: z.literal('watch_store'),
  store_id: z.string(),
  added_at: z.string().nullable().describe('null for the managed watch (its stores follow the ranking)'),
});

export const BriefChange = z.object({ store_id: z.string().nullable(), domain: z.string().nullable(), kind: z.string(), level: health, detail: z.string() });

export const WatchBrief = z.object({
  object: z.literal('watch_brief'),
  watch_id: z.string(),
  type: z.enum(WATCH_TYPES),
  client_name: z.string().nullable(),
  month: z.string().nullable().describe('The month the brief covers: the latest checked month (null: not checked yet)'),
  run_id: z.string().nullable(),
  health,
  health_reason: z.string(),
  stores_checked: z.number().int(),
  summary: z.string().describe('Plain words'),
  changes: z.array(BriefChange).describe("That month's changes in the watched stores and the watch's findings, as the latest check found them"),
});

export const storeIds = z.array(storeId).max(WATCH_ADD_MAX);

export const AddWatch = z
  .strictObject({
    type: z.enum(ADDABLE_WATCH_TYPES).describe('`self_directed` (stores the workspace picks) or `client` (a client and its stores)'),
    client_name: z.string().trim().min(1).max(200).optional().describe('Required for a client watch; not allowed otherwise'),
    store_ids: storeIds.default([]).describe(`Stores to watch (up to ${WATCH_ADD_MAX} per call); each must be one of the workspace's accounts`),
  })
  .superRefine((b, ctx) => {
    if (b.type === 'client' && b.client_name === undefined) ctx.addIssue({ code: 'custom', path: ['client_name'], message: 'client_name is required for a client watch' });
    if (b.type !== 'client' && b.client_name !== undefined) ctx.addIssue({ code: 'custom', path: ['client_name'], message: 'client_name is only for a client watch' });
  });
