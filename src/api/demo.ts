/** The demo workspace `npm start` prints a key for: idempotent except for the fresh key. */
import type { Db } from '../db/index.js';
import { importAccounts, type AccountInput } from '../db/accounts.js';
import { createWorkspace, findWorkspace, upsertMember } from '../db/workspaces.js';
import { issueApiKey } from './issue-key.js';
import { keyScopes } from './scopes.js';

export const DEMO_WORKSPACE = 'demo';
export const DEMO_OWNER = 'owner@demo.example';

const DEMO_ACCOUNTS: AccountInput[] = [
  { store_id: 'demo-store-001', domain: 'northwind-outfitters.example', country: 'US', category: 'apparel', plan: 'plus', score: 0.92, evidence: [{ signal: 'agentic_feature_adopted', detail: 'llms_txt' }] },
  { store_id: 'demo-store-002', domain: 'maple-and-thread.example', country: 'CA', category: 'apparel', plan: 'advanced', score: 0.87, evidence: [{ signal: 'ad_channel_added', detail: 'tiktok' }] },
  { store_id: 'demo-store-003', domain: 'kettle-co.example', country: 'GB', category: 'home', plan: 'grow', score: 0.81, evidence: [{ signal: 'traffic_jump', detail: '+48%' }] },
  { store_id: 'demo-store-004', domain: 'alpine-pantry.example', country: 'DE', category: 'food', plan: 'grow', score: 0.74, evidence: [{ signal: 'app_installed', detail: 'reviews' }] },
  { store_id: 'demo-store-005', domain: 'lumen-beauty.example', country: 'US', category: 'beauty', plan: 'basic', score: 0.66, evidence: [{ signal: 'plan_changed', detail: 'basic→grow' }] },
  { store_id: 'demo-store-006', domain: 'quiet-harbor.example', country: 'AU', category: 'home', plan: 'basic', score: 0.41, in_market: false, evidence: [] },
];

export async function ensureDemoKey(db: Db, now: Date = new Date()): Promise<{ workspace: string; key: string }> {
  const ws = (await findWorkspace(db.kysely, DEMO_WORKSPACE)) ?? (await createWorkspace(db.kysely, DEMO_WORKSPACE, now));
  await upsertMember(db.kysely, ws.id, DEMO_OWNER, 'owner', now);
  const have = await db.kysely.selectFrom('accounts').select('store_id').where('workspace_id', '=', ws.id).limit(1).execute();
  if (have.length === 0) await importAccounts(db, ws.id, DEMO_ACCOUNTS, now);
  const k = await issueApiKey(db, {
    workspaceId: ws.id,
    name: `demo ${now.toISOString()}`,
    scopes: keyScopes(['read', 'write-outcomes', 'reports']),
    createdBy: DEMO_OWNER,
    now,
  });
  return { workspace: ws.name, key: k.key };
}
