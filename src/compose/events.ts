/**
 * The catalog of event types a registered endpoint can receive (SPEC "Events"): the
 * declarations of the modules that emit events, concatenated. Each declaration (name, zod
 * payload, description, example) lives beside its module in a file that imports only zod and
 * src/core, so reading the catalog brings no module's logic along. The outbox's types, the
 * webhook routes' list of types, openapi.json's `webhooks`, the docs' examples and the shape
 * tests all read this one list.
 */
import { ACCOUNT_EVENTS } from '../accounts/events.js';
import { CONTACT_EVENTS } from '../contacts/events.js';
import { DEAL_EVENTS } from '../deals/events.js';
import { WATCH_EVENTS } from '../watches/events.js';

export const EVENTS = [...DEAL_EVENTS, ...CONTACT_EVENTS, ...ACCOUNT_EVENTS, ...WATCH_EVENTS] as const;

type Events = typeof EVENTS;
type Declaration = Events[number];

/** The names of a tuple of declarations, as a tuple (z.enum takes it). */
type TypesOf<D extends readonly { type: string }[]> = { readonly [K in keyof D]: D[K]['type'] };

export const EVENT_TYPES = EVENTS.map((e) => e.type) as unknown as TypesOf<Events>;

export type { DomainEvent, EventData, EventType } from '../core/event-declaration.js';

const byType = new Map<string, Declaration>(EVENTS.map((e) => [e.type, e]));

/** The declaration of `type`. */
export function eventDeclaration<T extends Declaration['type']>(type: T): Extract<Declaration, { type: T }> {
  return byType.get(type) as Extract<Declaration, { type: T }>;
}
