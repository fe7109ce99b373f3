/**
 * The capability manifest (config/capabilities.json): the availability of every operation,
 * read again at call time (cached per file modification), so flipping an operation needs no
 * restart. An operation missing from the manifest gets the availability its route plans
 * (`planned`); an unreadable or invalid manifest makes every operation unavailable.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const AVAILABILITIES = ['available', 'pilot', 'activation-gated', 'unavailable'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export interface Capability {
  availability: Availability;
  /** For activation-gated operations: the activation a workspace needs. */
  activation?: string;
}

const entry = z.union([
  z.enum(AVAILABILITIES).transform((availability) => ({ availability })),
  z.object({ availability: z.enum(AVAILABILITIES), activation: z.string().min(1).optional() }),
]);
const manifestSchema = z.object({ operations: z.record(z.string(), entry) });

export const DEFAULT_CAPABILITIES_PATH = fileURLToPath(new URL('../../config/capabilities.json', import.meta.url));

/** What the lookup needs of a route: its id and its planned availability (the default). */
export interface PlannedOperation {
  operationId: string;
  planned: Availability;
}

export type CapabilityLookup = (op: PlannedOperation) => Capability;

const UNAVAILABLE: Capability = Object.freeze({ availability: 'unavailable' });

/** The activations the manifest names for its operations (none when it cannot be read). */
export function manifestActivations(path: string = DEFAULT_CAPABILITIES_PATH): string[] {
  try {
    const ops = manifestSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).operations;
    return Object.values(ops).flatMap((c) => ('activation' in c && c.activation ? [c.activation] : []));
  } catch {
    return [];
  }
}

/** A lookup that re-reads the manifest whenever the file changes. */
export function capabilityReader(path: string = DEFAULT_CAPABILITIES_PATH): CapabilityLookup {
  let stamp = '';
  let ops: Record<string, Capability> | undefined;
  const planned = new Map<Availability, Capability>(AVAILABILITIES.map((a) => [a, Object.freeze({ availability: a })]));
  return ({ operationId, planned: availability }) => {
    try {
      const st = statSync(path);
      const now = `${st.mtimeMs}:${st.size}:${st.ino}`;
      if (now !== stamp) {
        ops = manifestSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).operations;
        stamp = now;
      }
    } catch {
      stamp = '';
      ops = undefined;
    }
    if (!ops) return UNAVAILABLE;
    return ops[operationId] ?? planned.get(availability)!;
  };
}
