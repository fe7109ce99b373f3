/**
 * An event type declared once (STYLE.md "One declaration, many uses"): its name, when it fires,
 * the zod schema of its payload and an example of one. Each module that emits events declares
 * them beside its code (src/<module>/events.ts, files that import only zod and src/core, each
 * exporting its `catalogue` entry); the catalog (compose/events.ts) finds and concatenates them, and the outbox's types, openapi.json's
 * `webhooks`, the docs' examples and the shape tests are read from it.
 */
import type { z } from 'zod';

export interface EventDeclaration<T extends string = string, S extends z.ZodType = z.ZodType> {
  /** `<noun>.<what happened>`: the `type` of the delivered message. */
  type: T;
  /** What emits it, in a sentence for a receiver (openapi.json's summary of the webhook). */
  summary: string;
  /** When exactly it fires and what its payload means. */
  description: string;
  /** The message's `data`. */
  payload: S;
  /** One payload as a receiver gets it (docs/webhooks.md shows the same one). */
  example: z.input<S>;
}

/** An event declaration, its type name kept literal. */
export const defineEvent = <const T extends string, S extends z.ZodType>(d: EventDeclaration<T, S>): EventDeclaration<T, S> => d;

/**
 * Every module's event declarations, by module: each events.ts adds its list here (a TypeScript
 * module augmentation, `declare module '../core/event-declaration.js'`), so the outbox is typed by
 * every declared event while the runtime catalogue (compose/events.ts) is assembled where the
 * modules are composed.
 */
// Empty here: each module's events.ts adds its declarations.
export interface EventCatalog {}

/**
 * What each module's events.ts exports as `catalogue`: its declarations, and their place in the
 * catalogue (the order docs/webhooks.md documents: the lists sort by place, which leaves gaps of
 * ten so a new module's list can go between two).
 */
export interface CatalogueEntry {
  place: number;
  events: readonly EventDeclaration[];
}

/** A declared event, of any module. */
export type DeclaredEvent = EventCatalog[keyof EventCatalog] extends infer L ? (L extends readonly (infer D)[] ? D : never) : never;

/** The type of a declared event. */
export type EventType = DeclaredEvent extends EventDeclaration<infer T> ? T : never;

/** The payload (`data`) of an event of type T, as its schema takes it. */
export type EventData<T extends EventType> = z.input<Extract<DeclaredEvent, { type: T }>['payload']>;

/** An event as the modules' logic appends it: a type and the payload its declaration allows. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
