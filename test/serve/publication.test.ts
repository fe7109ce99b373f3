import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
    expect(a.body.toString()).toContain('# L');
    expect(a.okHeaders).toEqual([
      'Content-Type', 'text/csv; charset=utf-8',
      'Content-Length', String(a.body.length),
      'Cache-Control', 'public, s-maxage=3600',
      'ETag', release.manifest.files['api/data/agentic-commerce.csv'].etag,
      'Last-Modified', release.manifest.files['api/data/agentic-commerce.csv'].last_modified,
      'Access-Control-Allow-Origin', '*',
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

  it('keeps the bytes of entries whose validators did not change from the previous publication', async () => {
    const first = await writeRelease(out, { 'data/rss.xml': '<rss>1</rss>', 'data/cards/agentic-commerce/2025-01/a-123456.png': 'PNG-A' });
    const before = await loadPublication(first.dir);
    const second = await writeRelease(out, { 'data/rss.xml': '<rss>2</rss>', 'data/cards/agentic-commerce/2025-01/a-123456.png': 'PNG-A' });
    const after = await loadPublication(second.dir, { previous: before });
    const card = '/data/cards/agentic-commerce/2025-01/a-123456.png';
    expect(after.byPath.get(card)).toBe(before.byPath.get(card));
    expect(after.byPath.get('/data/rss.xml')!.body.toString()).toBe('<rss>2</rss>');
    expect(after.totalBytes).toBe(before.totalBytes);
  });
});
