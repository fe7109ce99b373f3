/**
 * The accounts module's events: what a new ranking version changed in the in-market list, written
 * in the transaction that makes it current, whichever writer made it — the re-ranking
 * (refresh.ts), an import (store.ts importAccounts) or the re-listing of imported accounts under
 * their statuses (statuses-list.ts) — by one comparison with the version it replaces
 * (list-changes.ts). store.signal is the re-ranking's only: an import carries no signals. A leaf:
 * zod and src/core only.
 */
import { z } from 'zod';
import { type CatalogueEntry, defineEvent } from '../core/event-declaration.js';
import { SIGNAL_TYPES } from '../core/signals.js';

export const RecentSignal = z.object({
  id: z.string(),
  type: z.enum(SIGNAL_TYPES),
  month: z.string().describe('YYYY-MM'),
  subject: z.string().nullable().describe('The network, app, feature or new plan the signal is about, when it is about one'),
  detail: z.string().describe('Plain words, e.g. "Started advertising on TikTok"'),
  strength: z.number().describe('In (0, 1]'),
});

const store_id = z.string();
const model_version = z
  .number()
  .int()
  .describe("The model version of the store's row: the workspace model version of the re-ranking; 0 for a score imported with `storelens accounts import`");
const RE_RANKING = 'the re-ranking of the workspace (after an ingest, an outcome, a status, deal or profile change)';
/** The import, as the descriptions name it. */
const IMPORT = '`storelens accounts import`';

export const ACCOUNT_EVENTS = [
  defineEvent({
    type: 'store.entered',
    summary: 'A store joined the in-market list',
    description: `Emitted when the store joined the in-market list, by whatever made the new list current: ${RE_RANKING}, or ${IMPORT} (a new or updated account the file lists in market, or one a status had kept off), or, without store data, the re-listing after a status lets an imported account back on.`,
    payload: z.object({
      store_id,
      transition: z.literal('entered'),
      score: z.number(),
      explore: z.boolean().describe('In the list as exploration, not for its score alone'),
      signals: z.array(RecentSignal).describe('Its recent signals, at most 10, as its account row shows them'),
      model_version,
    }),
    example: {
      store_id: 's-000123',
      transition: 'entered',
      score: 0.81,
      explore: false,
      signals: [{ id: 'sig_d3f79a3c80f89c889f5665de10a224e9', type: 'ad_channel_started', month: '2026-10', subject: 'tiktok', detail: 'Started advertising on TikTok', strength: 0.7 }],
      model_version: 12,
    },
  }),
  defineEvent({
    type: 'store.exited',
    summary: 'A store left the in-market list',
    description: `Emitted when the store left the in-market list: by ${RE_RANKING}, as its score fell or an operator set a status such as \`disqualified\`; by ${IMPORT}, as the file says \`"in_market": false\` or the account has such a status; without store data, by the re-listing after such a status. And by a re-ranking when the workspace can no longer see the store: then \`score\` is null and \`reason\` says so.`,
    payload: z.object({
      store_id,
      transition: z.literal('exited'),
      score: z.number().nullable().describe('null when the store is no longer visible to the workspace'),
      reason: z.string().optional().describe('Set when the store is no longer visible: `no longer visible`'),
      model_version,
    }),
    example: { store_id: 's-000456', transition: 'exited', score: 0.12, model_version: 13 },
  }),
  defineEvent({
    type: 'store.signal',
    summary: 'An in-market store has a new signal',
    description: `Emitted by ${RE_RANKING} when a store that stays in market has a signal it did not have before: one event per new signal. Never by ${IMPORT}: an import file carries no signals (its \`signal\` evidence items are reasons for the score).`,
    payload: z.object({ store_id, signal: RecentSignal, score: z.number(), model_version }),
    example: {
      store_id: 's-000789',
      signal: { id: 'sig_c920d3bef84e3f254ae0d3ab091f20db', type: 'app_installed', month: '2026-10', subject: 'klaviyo', detail: 'Installed klaviyo', strength: 0.5 },
      score: 0.62,
      model_version: 13,
    },
  }),
] as const;

/** The catalogue (compose/events.ts) finds this list and orders it by its place, docs/webhooks.md's order. */
export const catalogue: CatalogueEntry = { place: 30, events: ACCOUNT_EVENTS };

declare module '../core/event-declaration.js' {
  interface EventCatalog {
    accounts: typeof ACCOUNT_EVENTS;
  }
}
