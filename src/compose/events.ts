/**
 * The catalog of event types a registered endpoint can receive (SPEC "Events"): the
 * declarations of the modules that emit events, found in each folder's events.ts (its
 * `catalogue` entry) and ordered by the place each declares (docs/webhooks.md's order), so a new
 * module's events need no line here. Each declaration (name, zod payload, description, example)
 * lives in a file that imports only zod and src/core, so reading the catalog brings no module's
 * logic along. The outbox's types, the webhook routes' list of types, openapi.json's `webhooks`,
 * the docs' examples and the shape tests all read this one list.
 */
import type { CatalogueEntry, DeclaredEvent, EventType } from '../core/event-declaration.js';
import { foldersWith, OWN_EXTENSION } from './source-folders.js';

async function findCatalogue(): Promise<CatalogueEntry[]> {
  const entries = await Promise.all(
    foldersWith(`events${OWN_EXTENSION}`)
      .filter(({ folder }) => folder !== 'compose')
      .map(async ({ folder, url }) => {
        const { catalogue } = (await import(url.href)) as { catalogue?: CatalogueEntry };
        if (!catalogue) throw new Error(`src/${folder}/events: no \`catalogue\` entry exported`);
        return catalogue;
      }),
  );
  const places = entries.map((e) => e.place);
  if (new Set(places).size !== places.length) throw new Error(`two event lists declare the same catalogue place: ${places.join(', ')}`);
  return entries.sort((a, b) => a.place - b.place);
}

export const EVENTS = (await findCatalogue()).flatMap((e) => e.events) as unknown as readonly DeclaredEvent[];

/** The declared types, in the catalogue's order (a non-empty tuple, as z.enum takes it). */
export const EVENT_TYPES = EVENTS.map((e) => e.type) as unknown as readonly [EventType, ...EventType[]];

export type { DomainEvent, EventData, EventType } from '../core/event-declaration.js';

const byType = new Map<string, DeclaredEvent>(EVENTS.map((e) => [e.type, e]));

/** The declaration of `type`. */
export function eventDeclaration<T extends EventType>(type: T): Extract<DeclaredEvent, { type: T }> {
  return byType.get(type) as Extract<DeclaredEvent, { type: T }>;
}
