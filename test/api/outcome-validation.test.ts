import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OutcomeInput } from '../../src/accounts/outcome-routes.js';
import { DEAL_STAGES, LOST_REASONS } from '../../src/core/deal-stages.js';

const FIELDS = new Set(['store_id', 'action', 'value', 'occurred_at', 'note', 'lost_reason', 'lost_reason_other']);

/** SPEC's Outcome table, written independently of the zod schema. */
function specAccepts(b: any): boolean {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
  if (Object.keys(b).some((k) => !FIELDS.has(k))) return false;
  if (typeof b.store_id !== 'string') return false;
  if (!(DEAL_STAGES as readonly string[]).includes(b.action)) return false;
  if ('value' in b && (typeof b.value !== 'number' || !Number.isFinite(b.value))) return false;
  for (const f of ['occurred_at', 'note', 'lost_reason_other']) if (f in b && typeof b[f] !== 'string') return false;
  if ('lost_reason' in b && !(LOST_REASONS as readonly string[]).includes(b.lost_reason)) return false;
  if (b.action === 'lost' && !('lost_reason' in b)) return false;
  if (b.lost_reason === 'other' && !('lost_reason_other' in b)) return false;
  return true;
}

const anyValue = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const body = fc.record(
  {
    store_id: fc.oneof(fc.string(), anyValue),
    action: fc.oneof(fc.constantFrom(...DEAL_STAGES), anyValue),
    value: fc.oneof(fc.double(), anyValue),
    occurred_at: fc.oneof(fc.string(), anyValue),
    note: fc.oneof(fc.string(), anyValue),
    lost_reason: fc.oneof(fc.constantFrom(...LOST_REASONS), anyValue),
    lost_reason_other: fc.oneof(fc.string(), anyValue),
    surprise: anyValue,
  },
  { requiredKeys: [] },
);

describe('Outcome validation', () => {
  it('accepts exactly the bodies SPEC allows', () => {
    fc.assert(
      fc.property(fc.oneof(body, fc.jsonValue()), (b) => {
        expect(OutcomeInput.safeParse(b).success).toBe(specAccepts(b));
      }),
      { numRuns: 3000 },
    );
  });
});
