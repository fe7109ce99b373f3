/**
 * A client generated from openapi.json (openapi-typescript types + openapi-fetch) calling the
 * implemented operations. Its types are the golden test/golden/api/storelens-api.d.ts;
 * openapi-client.test.ts type-checks this file, so a change to the document that breaks
 * callers fails the tests.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../golden/api/storelens-api.js';

export async function exerciseClient(baseUrl: string, key: string, webhookId: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
  const page = await client.GET('/accounts', { params: { query: { limit: 2 } } });
  const firstStore: string | undefined = page.data?.data[0]?.store_id;
  const next: string | null | undefined = page.data?.next_cursor;
  const page2 = next ? await client.GET('/accounts', { params: { query: { limit: 2, cursor: next } } }) : undefined;
  const outcome = await client.POST('/outcomes', {
    params: { header: { 'Idempotency-Key': `client-${Date.now()}` } },
    body: { store_id: firstStore ?? 'unknown', action: 'lost', lost_reason: 'other', lost_reason_other: 'went in-house' },
  });
  const recordedAction: 'discovery' | 'qualifying' | 'proposal' | 'negotiation' | 'won' | 'lost' | undefined = outcome.data?.action;
  const deleted = await client.DELETE('/webhooks/{id}', {
    params: { path: { id: webhookId }, header: { 'Idempotency-Key': `client-del-${Date.now()}` } },
  });
  const missing = await client.DELETE('/webhooks/{id}', {
    params: { path: { id: 'whe_missing' }, header: { 'Idempotency-Key': `client-miss-${Date.now()}` } },
  });
  return {
    firstStore,
    secondPageSize: page2?.data?.data.length,
    recordedAction,
    outcomeStatus: outcome.response.status,
    deleted: deleted.data?.deleted,
    missingStatus: missing.response.status,
    missingProblemType: (missing.error as { type?: string } | undefined)?.type,
  };
}

/** The deal operations, each once, as a client of the pipeline would call them. */
export async function exerciseDeals(baseUrl: string, key: string, storeId: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
  const idem = (what: string) => ({ 'Idempotency-Key': `client-${what}-${Date.now()}` });
  const created = await client.POST('/deals', {
    params: { header: idem('create') },
    body: { store_id: storeId, title: 'Relaunch', value: 5000, currency: 'EUR', owner_email: 'ana@agency.example', expected_close_date: '2026-06-30' },
  });
  const id = created.data?.id ?? 'missing';
  const version: number | undefined = created.data?.version;
  const read = await client.GET('/deals/{id}', { params: { path: { id } } });
  const updated = await client.PATCH('/deals/{id}', { params: { path: { id }, header: { ...idem('update'), 'if-match': String(version) } }, body: { value: 6000 } });
  const moved = await client.POST('/deals/{id}/stage', {
    params: { path: { id }, header: { ...idem('move'), 'if-match': String(updated.data?.version) } },
    body: { stage: 'lost', lost_reason: 'budget' },
  });
  const stale = await client.POST('/deals/{id}/stage', { params: { path: { id }, header: { ...idem('stale'), 'if-match': '1' } }, body: { stage: 'proposal' } });
  const note = await client.POST('/deals/{id}/notes', { params: { path: { id }, header: idem('note') }, body: { body: 'Budget frozen until Q3' } });
  const notes = await client.GET('/deals/{id}/notes', { params: { path: { id }, query: { limit: 10 } } });
  const history = await client.GET('/deals/{id}/history', { params: { path: { id } } });
  const list = await client.GET('/deals', { params: { query: { stage: 'lost', store_id: storeId } } });
  const stage: 'discovery' | 'qualifying' | 'proposal' | 'negotiation' | 'won' | 'lost' | undefined = moved.data?.stage;
  return {
    created: created.response.status,
    readTitle: read.data?.title,
    updatedValue: updated.data?.value,
    stage,
    staleStatus: stale.response.status,
    noteBody: note.data?.body,
    notes: notes.data?.data.length,
    history: history.data?.data.map((c) => `${c.kind}:${c.field}:${String(c.from)}→${String(c.to)}`),
    listed: list.data?.data.map((d) => d.id === id),
  };
}
