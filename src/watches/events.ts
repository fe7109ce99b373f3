/**
 * The watches module's event (emitted by set-health.ts, in the transaction that changes the
 * watch's health). A leaf: zod, src/core and the watch vocabulary.
 */
import { z } from 'zod';
import { type CatalogueEntry, defineEvent } from '../core/event-declaration.js';
import { WATCH_HEALTH } from './types.js';

export const WATCH_EVENTS = [
  defineEvent({
    type: 'watch.health_changed',
    summary: "A watch's health level changed",
    description:
      "Emitted by the health check of the watches (after every ingest, and when a watch is added or its stores change), and when a watch is cancelled or restarted, when the watch's health level changes.",
    payload: z.object({
      watch_id: z.string(),
      from: z.enum(WATCH_HEALTH),
      to: z.enum(WATCH_HEALTH),
      reason: z.string().describe('Why, in plain words'),
    }),
    example: { watch_id: 'wat_2e7f738efd2e0eb0e1ef', from: 'healthy', to: 'degraded', reason: 's-000123: Monthly visits down 60%' },
  }),
] as const;

/** The catalogue (compose/events.ts) finds this list and orders it by its place, docs/webhooks.md's order. */
export const catalogue: CatalogueEntry = { place: 40, events: WATCH_EVENTS };

declare module '../core/event-declaration.js' {
  interface EventCatalog {
    watches: typeof WATCH_EVENTS;
  }
}
