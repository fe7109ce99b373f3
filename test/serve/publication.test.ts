import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPublication, PublicationError } from '../../src/serve/publication.js';
import { samplePublicationFiles, writeRelease } from '../helpers/publication.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-pub-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('loadPublication', () => {
  it('holds every public artifact of the manifest under its URL, with its headers', async () => {
    const files = samplePublicationFiles({ runId: 'L', months: ['2025-01'] });
    const release = await writeRelease(out, files);
    const pub = await loadPublication(release.dir);
    expect(pub.byPath.size).toBe(Object.keys(files).length);
    const a = pub.byPath.get('/api/data/agentic-commerce/csv')!;
    expect(a.key).toBe('api/data/agentic-commerce.csv');
    expect(a.body!.toString()).toContain('# L');
    expect(a.okHeaders).toEqual([
      'Content-Type', 'text/csv; charset=utf-8',
      'Content-Length', String(a.body!.length),
      'Cache-Control', 'public, s-maxage=3600',
      'Expires', 'Thu, 01 Jan 1970 00:00:00 GMT',
      'ETag', release.manifest.files['api/data/agentic-commerce.csv'].etag,
      'Last-Modified', release.manifest.files['api/data/agentic-commerce.csv'].last_modified,
      'Access-Control-Allow-Origin', '*',
      'Access-Control-Expose-Headers', 'ETag',
      'X-Content-Type-Options', 'nosniff',
    ]);
  });

  it('never reads manifest keys that are not public artifact paths', async () => {
    const release = await writeRelease(out, { 'data/rss.xml': '<rss/>', 'notes/internal.txt': 'private' });
    // A hostile manifest naming files outside the release: never read, never served.
    const manifest = { ...release.manifest, files: { ...release.manifest.files } };
    for (const key of ['../../../../etc/passwd', '/etc/passwd', 'data/../../x.md', 'data/%2e%2e.md']) {
      manifest.files[key] = { ...release.manifest.files['data/rss.xml'], bytes: 1 };
    }
    await writeFile(path.join(release.dir, 'manifest.json'), JSON.stringify(manifest));
    const pub = await loadPublication(release.dir);
    expect([...pub.byPath.keys()]).toEqual(['/data/rss.xml']);
  });

  it('rejects a release whose file length differs from the manifest', async () => {
    const release = await writeRelease(out, { 'data/rss.xml': '<rss/>' }, { manifestPatch: { 'data/rss.xml': { bytes: 99 } } });
    await expect(loadPublication(release.dir)).rejects.toThrow(PublicationError);
    await expect(loadPublication(release.dir)).rejects.toThrow(/data\/rss.xml has 6 bytes, the manifest says 99/);
  });

  it('rejects a manifest with an unquoted ETag or a bad date', async () => {
    const r1 = await writeRelease(out, { 'data/rss.xml': '<rss/>' }, { manifestPatch: { 'data/rss.xml': { etag: 'abc' } } });
    await expect(loadPublication(r1.dir)).rejects.toThrow(/etag/);
    const r2 = await writeRelease(out, { 'data/rss.xml': '<rss/>' }, { manifestPatch: { 'data/rss.xml': { last_modified: 'soon' } } });
    await expect(loadPublication(r2.dir)).rejects.toThrow(/last_modified/);
  });

  it.each(['Mon, 30 Nov 2026 16:54:38 GMT (\n)', 'Mon, 30 Nov 2026 16:54:38 GMT\u0001', '2026-11-30T16:54:38Z', 'Monday, 30-Nov-26 16:54:38 GMT'])(
    'rejects a Last-Modified %j that Date.parse takes but is no IMF-fixdate (a line break would cut every answer of the file)',
    async (lastModified) => {
      const r = await writeRelease(out, { 'data/rss.xml': '<rss/>' }, { manifestPatch: { 'data/rss.xml': { last_modified: lastModified } } });
      await expect(loadPublication(r.dir)).rejects.toThrow(/last_modified: an HTTP date \(IMF-fixdate/);
    },
  );

  it('keeps the bytes of documents whose validators did not change from the previous publication; cards point into the new folder', async () => {
    const card = 'data/cards/agentic-commerce/2025-01/a-123456.png';
    const first = await writeRelease(out, { 'data/rss.xml': '<rss>1</rss>', 'data/agentic-commerce.md': '# same', [card]: 'PNG-A' });
    const before = await loadPublication(first.dir);
    const second = await writeRelease(out, { 'data/rss.xml': '<rss>2</rss>', 'data/agentic-commerce.md': '# same', [card]: 'PNG-A' });
    // The old folder may be garbage-collected: nothing of the new publication may depend on it.
    await rm(first.dir, { recursive: true });
    const after = await loadPublication(second.dir, { previous: before });
    expect(after.byPath.get('/data/agentic-commerce.md')).toBe(before.byPath.get('/data/agentic-commerce.md'));
    expect(after.byPath.get('/data/rss.xml')!.body!.toString()).toBe('<rss>2</rss>');
    expect(after.byPath.get(`/${card}`)!.file).toBe(path.join(second.dir, card));
    expect(after.totalBytes).toBe(before.totalBytes);
    // Loaded again from the same folder, an unchanged card keeps its artifact.
    const again = await loadPublication(second.dir, { previous: after });
    expect(again.byPath.get(`/${card}`)).toBe(after.byPath.get(`/${card}`));
  });
});

describe('cards stay on disk', () => {
  const CARDS = 3000;
  const CARD_BYTES = 16 * 1024;
  const cardKey = (i: number) => `data/cards/${i % 2 ? 'agentic-commerce' : 'platform-stores'}/2025-${String(1 + (i % 12)).padStart(2, '0')}/stat-${i}.png`;

  it(`a publication of ${CARDS} cards holds none of their bytes, only a stat-checked path per card`, async () => {
    const files: Record<string, string | Buffer> = { ...Object.fromEntries(Object.entries(samplePublicationFiles({ runId: 'M', months: ['2025-01'] })).map(([k, v]) => [k, v.body])) };
    for (let i = 0; i < CARDS; i++) files[cardKey(i)] = randomBytes(CARD_BYTES);
    const release = await writeRelease(out, files);
    let documentBytes = 0;
    let cardBytes = 0;
    for (const e of Object.values(release.manifest.files)) {
      if (e.content_type === 'image/png') cardBytes += e.bytes;
      else documentBytes += e.bytes;
    }
    expect(cardBytes).toBeGreaterThan(CARDS * CARD_BYTES - 1);

    const before = process.memoryUsage().arrayBuffers;
    const pub = await loadPublication(release.dir);
    const grew = process.memoryUsage().arrayBuffers - before;

    expect(pub.inMemoryBytes).toBe(documentBytes);
    expect(pub.onDiskBytes).toBe(cardBytes);
    expect(pub.onDiskFiles).toBe(CARDS + 2); // plus the sample's two cards
    expect(pub.totalBytes).toBe(documentBytes + cardBytes);
    for (let i = 0; i < CARDS; i++) {
      const a = pub.byPath.get(`/${cardKey(i)}`)!;
      expect(a.body).toBeNull();
      expect(a.file).toBe(path.join(release.dir, cardKey(i)));
      expect(a.okHeaders).toContain(String(CARD_BYTES));
    }
    // Buffers held after the load: the documents, not ~48 MB of cards.
    expect(grew).toBeLessThan(cardBytes / 10);
  });

  it('rejects a release whose card is missing, has another length, or is not a file', async () => {
    const card = 'data/cards/agentic-commerce/2025-01/a-1.png';
    const missing = await writeRelease(out, { 'data/rss.xml': '<rss/>', [card]: 'PNG' });
    await unlink(path.join(missing.dir, card));
    await expect(loadPublication(missing.dir)).rejects.toThrow(/cannot read data\/cards\/agentic-commerce\/2025-01\/a-1.png \(ENOENT\)/);

    const longer = await writeRelease(out, { 'data/rss.xml': '<rss/>', [card]: 'PNG' }, { manifestPatch: { [card]: { bytes: 4 } } });
    await expect(loadPublication(longer.dir)).rejects.toThrow(/a-1.png has 3 bytes, the manifest says 4/);

    const dir = await writeRelease(out, { 'data/rss.xml': '<rss/>', [card]: 'PNG' });
    await unlink(path.join(dir.dir, card));
    await mkdir(path.join(dir.dir, card));
    await expect(loadPublication(dir.dir)).rejects.toThrow(/a-1.png is not a regular file/);
  });
});
