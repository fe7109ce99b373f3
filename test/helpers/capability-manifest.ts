/**
 * Capability manifests written by a test. A test names every operation it calls and how
 * available each is, so it keeps meaning the same thing when config/capabilities.json changes
 * (an operation ships, a pilot opens). Every operation the test does not name is written as
 * unavailable, so no route's planned availability (what a manifest that leaves it out gives it)
 * leaks into a test.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Availability } from '../../src/api/capabilities.js';
import { ROUTES } from '../../src/compose/modules.js';

export type ManifestEntry = Availability | { availability: Availability; activation?: string };
export type Operations = Record<string, ManifestEntry>;

export interface CapabilityManifest {
  /** The file, for `capabilitiesPath`. */
  path: string;
  /** Replaces the manifest (a new file renamed into place, as an operator's edit would land). */
  write(operations: Operations): void;
  remove(): void;
}

/** The operations that work today, available: what most tests call. */
export const WORKING: Operations = {
  list_accounts: 'available',
  get_account: 'available',
  list_account_signals: 'available',
  set_account_status: 'available',
  get_profile: 'available',
  record_outcome: 'available',
  delete_webhook: 'available',
  list_deals: 'available',
  get_deal: 'available',
  create_deal: 'available',
  update_deal: 'available',
  move_deal_stage: 'available',
  add_deal_note: 'available',
  list_deal_notes: 'available',
  list_deal_history: 'available',
  find_contacts: 'available',
  get_contact: 'available',
  add_contact: 'available',
  update_contact: 'available',
  discover_contacts: 'available',
};

export function capabilityManifest(operations: Operations): CapabilityManifest {
  const dir = mkdtempSync(join(tmpdir(), 'storelens-caps-'));
  const path = join(dir, 'capabilities.json');
  let version = 0;
  const write = (ops: Operations) => {
    const next = join(dir, `next-${++version}.json`);
    const all: Operations = Object.fromEntries(ROUTES.map((r) => [r.operationId, 'unavailable']));
    writeFileSync(next, JSON.stringify({ operations: { ...all, ...ops } }, null, 2));
    renameSync(next, path);
  };
  write(operations);
  return { path, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
