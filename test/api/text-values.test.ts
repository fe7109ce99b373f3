/**
 * Text a JSON body can carry that a database cannot store as sent: U+0000 (PostgreSQL text
 * refuses it) and lone surrogates (not Unicode; both drivers would store U+FFFD instead). Both
 * are refused as the body's problem on either database, before anything is written; so are
 * bytes that are not UTF-8, which would otherwise be stored as U+FFFD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/members/issue-key.js';
import { dialects } from '../helpers/db.js';
import { capabilityManifest, WORKING, type CapabilityManifest } from '../helpers/capability-manifest.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';

describe.each(dialects)('$label', ({ name, skip }) => {
  let h: Harness;
  let key: string;
  let manifest: CapabilityManifest;
  beforeAll(async () => {
    if (skip) return;
    manifest = capabilityManifest(WORKING);
    h = await startApi(name, { capabilitiesPath: manifest.path });
    const ws = await workspace(h.db);
    const scopes = ['write:outcomes', 'manage:webhooks'] as const;
    key = (await issueApiKey(h.db, { workspaceId: ws.id, name: 'text', scopes, createdBy: 'owner@example.com', now: new Date() })).key;
  });
  afterAll(async () => {
    await h?.close();
    manifest?.remove();
  });

  const record = (json: string, idem: string) =>
    fetch(`${h.base}/outcomes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
      body: json,
    });

  it.skipIf(skip).each([
    ['a NUL character in store_id', '{"store_id":"a\\u0000b","action":"won"}'],
    ['a NUL character in a note', '{"store_id":"s-1","action":"won","note":"x\\u0000"}'],
    ['a lone high surrogate', '{"store_id":"\\ud800","action":"won"}'],
    ['a lone low surrogate in a note', '{"store_id":"s-1","action":"won","note":"\\udc00 tail"}'],
  ])('answers %s with a 400 invalid-body problem and records nothing', async (_what, json) => {
    const res = await record(json, `text-${Math.random()}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { type: string }).type).toBe('https://storelens.dev/problems/invalid-body');
    const rows = await h.db.kysely.selectFrom('outcomes').select('id').execute();
    expect(rows).toEqual([]);
  });

  it.skipIf(skip)('stores and returns other text as sent: escapes, a surrogate pair, other control characters', async () => {
    const res = await record('{"store_id":"s-\\ud83d\\ude00","action":"won","note":"tab\\tline\\nbell\\u0007 \\\\u0000"}', 'text-ok');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { store_id: string; note: string };
    expect(body.store_id).toBe('s-😀');
    expect(body.note).toBe('tab\tline\nbell\u0007 \\u0000');
  });

  it.skipIf(skip)('answers a NUL character in a path parameter with a 400 invalid-parameters problem', async () => {
    const res = await fetch(`${h.base}/webhooks/wh%00x`, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'text-path' } });
    expect(res.status).toBe(400);
    const p = (await res.json()) as { type: string; errors: unknown };
    expect(p.type).toBe('https://storelens.dev/problems/invalid-parameters');
    expect(p.errors).toEqual([{ path: 'id', message: expect.stringContaining('U+0000') }]);
  });
});

describe('a JSON body that is not UTF-8', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await startApi('SQLite');
    const ws = await workspace(h.db);
    key = (await issueApiKey(h.db, { workspaceId: ws.id, name: 'bytes', scopes: ['write:outcomes'], createdBy: 'owner@example.com', now: new Date() })).key;
  });
  afterAll(async () => h?.close());

  const record = (body: Buffer, idem: string) =>
    fetch(`${h.base}/outcomes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
      body,
    });

  it('is a 400 malformed-json problem, not text with U+FFFD written in place of its bytes', async () => {
    const latin1 = Buffer.from('{"store_id":"caf\xe9","action":"won"}', 'latin1');
    const res = await record(latin1, 'bytes-latin1');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { type: string }).type).toBe('https://storelens.dev/problems/malformed-json');
    expect(await h.db.kysely.selectFrom('outcomes').select('id').execute()).toEqual([]);
  });

  it('names a byte order mark before the JSON, rather than call a valid-looking body invalid JSON', async () => {
    const res = await record(Buffer.from('\ufeff{"store_id":"s1","action":"won"}', 'utf8'), 'bytes-bom');
    expect(res.status).toBe(400);
    const p = (await res.json()) as { type: string; detail: string };
    expect(p.type).toBe('https://storelens.dev/problems/malformed-json');
    expect(p.detail).toContain('starts with a byte order mark (U+FEFF)');
    expect(await h.db.kysely.selectFrom('outcomes').select('id').execute()).toEqual([]);
  });

  it('leaves UTF-8 text as it was sent', async () => {
    const res = await record(Buffer.from('{"store_id":"café","action":"won"}', 'utf8'), 'bytes-utf8');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { store_id: string }).store_id).toBe('café');
  });
});
