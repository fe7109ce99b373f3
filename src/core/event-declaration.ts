/**
 * An event type declared once (STYLE.md "One declaration, many uses"): its name, when it fires,
 * the zod schema of its payload and an example of one. Each module that emits events declares
 * them beside its code (src/<module>/events.ts, files that import only zod and src/core); the
 * catalog (webhooks/events.ts) concatenates them, and the outbox's types, openapi.json's
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
