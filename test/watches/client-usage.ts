/**
 * A client generated from openapi.json (openapi-typescript types + openapi-fetch) calling every
 * watch operation. watches-client.test.ts type-checks this file against the golden
 * test/golden/api/storelens-api.d.ts and runs it, so a change that breaks callers fails.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../golden/api/storelens-api.js';

export async function exerciseWatches(baseUrl: string, key: string, stores: [string, string]) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
  let n = 0;
  const idem = () => ({ 'Idempotency-Key': `watch-client-${Date.now()}-${++n}` });
  const resized = await client.PATCH('/watch/managed', { params: { header: idem() }, body: { capacity: 5 } });
  const managed = await client.GET('/watch/managed');
  const cancelled = await client.POST('/watch/managed/cancel', { params: { header: idem() } });
  const added = await client.POST('/watches', { params: { header: idem() }, body: { type: 'client', client_name: 'Acme', store_ids: [stores[0]] } });
  const id = added.data?.id ?? 'missing';
  const list = await client.GET('/watches', { params: { query: { type: 'client', limit: 10 } } });
  const one = await client.GET('/watches/{id}', { params: { path: { id } } });
  const more = await client.POST('/watches/{id}/stores', { params: { path: { id }, header: idem() }, body: { store_ids: [stores[1]] } });
  const storeList = await client.GET('/watches/{id}/stores', { params: { path: { id }, query: { limit: 10 } } });
  const less = await client.DELETE('/watches/{id}/stores/{store_id}', { params: { path: { id, store_id: stores[0] }, header: idem() } });
  const events = await client.GET('/watches/{id}/events', { params: { path: { id }, query: { limit: 10 } } });
  const receipts = await client.GET('/watches/{id}/receipts', { params: { path: { id }, query: { limit: 10 } } });
  const brief = await client.GET('/watches/{id}/brief', { params: { path: { id }, query: { format: 'json' } } });
  const markdown = await client.GET('/watches/{id}/brief', { params: { path: { id }, query: { format: 'markdown' } }, parseAs: 'text' });
  const removed = await client.DELETE('/watches/{id}', { params: { path: { id }, header: idem() } });
  const health: 'healthy' | 'degraded' | 'failing' | 'paused' | undefined = cancelled.data?.health;
  return {
    resizedCapacity: resized.data?.capacity,
    managedStatus: managed.data?.status,
    cancelledHealth: health,
    addedType: added.data?.type,
    listed: list.data?.data.map((w) => w.id),
    oneClient: one.data?.client_name,
    storeCount: more.data?.store_count,
    stores: storeList.data?.data.map((s) => s.store_id),
    afterRemoval: less.data?.store_count,
    events: events.data?.data.length,
    receipts: receipts.data?.data.length,
    // The brief has two media types (JSON and markdown): the client narrows to the JSON one.
    briefObject: typeof brief.data === 'object' ? brief.data.object : undefined,
    markdownType: markdown.response.headers.get('content-type'),
    removed: removed.data?.deleted,
    id,
  };
}
