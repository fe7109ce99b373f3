/**
 * The event types a registered endpoint can receive (SPEC "Events"). The outbox, the delivery
 * worker and the webhook routes all read this one list.
 */
export const EVENT_TYPES = [
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'contact.created',
  'store.entered',
  'store.exited',
  'store.signal',
  'watch.health_changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
