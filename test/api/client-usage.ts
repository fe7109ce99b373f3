/**
 * A client generated from openapi.json (openapi-typescript types + openapi-fetch) calling the
 * three implemented operations. Its types are the golden test/golden/api/storelens-api.d.ts;
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
