/**
 * Panel hashes remembered by file identity: an unchanged file is not read again, a changed one
 * (content, size, or times) is; a no-op publish answers from the live publication without
 * assembling, and a change of cards mode is not mistaken for one.
 */
import { createHash } from 'node:crypto';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assemblyKey } from '../../src/publish/assembly-key.js';
import { hashPanelCached, readHashCache, type HashCache } from '../../src/publish/hash-cache.js';
import { listPanel } from '../../src/panel/read.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { snapshotTree, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-hash-cache-');
afterEach(() => dirs.removeAll());

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');
/**
 * A clock a minute ahead of the file system's: every file written so far is older than the
 * cache's settling time (two seconds), as a panel dropped earlier is, without waiting for it.
 */
const aMinuteOn = () => Date.now() + 60_000;

describe('panel hashes by file identity', () => {
  it('answers an unchanged file from the cache without reading it, and re-hashes a file rewritten with the same size and times', async () => {
    const input = await dirs.make();
    const files = await generate(input, { stores: 60, seed: 'hc', from: '2026-09', to: '2026-10' });
    const panel = await listPanel(input);
    const first = await hashPanelCached(panel, { version: 1, files: {} }, aMinuteOn);
    expect(first.hashes.get('2026-09')).toBe(await sha256(files[0]));
    expect(Object.keys(first.cache.files).sort()).toEqual(files.map((f) => path.resolve(f)).sort());

    // A remembered hash is taken as it is: proof the file was not read.
    const planted: HashCache = structuredClone(first.cache);
    planted.files[path.resolve(files[0])].sha256 = 'f'.repeat(64);
    expect((await hashPanelCached(panel, planted, aMinuteOn)).hashes.get('2026-09')).toBe('f'.repeat(64));

    // Same size, same mtime, other bytes: the inode's ctime changed, so it is read again.
    const before = await stat(files[0]);
    const bytes = await readFile(files[0]);
    bytes[bytes.lastIndexOf('1'.charCodeAt(0))] = '2'.charCodeAt(0);
    await writeFile(files[0], bytes);
    expect((await stat(files[0])).size).toBe(before.size);
    await utimes(files[0], before.atime, before.mtime);
    const again = await hashPanelCached(panel, planted, aMinuteOn);
    expect(again.hashes.get('2026-09')).toBe(await sha256(files[0]));
    expect(again.hashes.get('2026-09')).not.toBe(first.hashes.get('2026-09'));
    expect(again.hashes.get('2026-10')).toBe(first.hashes.get('2026-10'));
  });

  it('does not remember a file changed in the last two seconds (it could change again with the same times)', async () => {
    const input = await dirs.make();
    const [file] = await generate(input, { stores: 60, seed: 'hc', from: '2026-10', to: '2026-10' });
    // A clock one second after the file's last change, not the real one: a loaded machine can take
    // longer than two seconds from generate() to here, and the file would rightly be remembered.
    const s = await stat(file, { bigint: true });
    const changedMs = Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);
    const { hashes, cache } = await hashPanelCached(await listPanel(input), { version: 1, files: {} }, () => changedMs + 1_000);
    expect(hashes.size).toBe(1);
    expect(cache.files).toEqual({});
  });
});

describe('a publish of unchanged input', () => {
  it('changes nothing and stops before assembling, once the hashes are remembered with the release', async () => {
    const input = await dirs.make();
    const out = path.join(await dirs.make(), 'out');
    await generate(input, { stores: 300, seed: 'hc', from: '2026-09', to: '2026-10' });
    expect(await publishPanel(input, out, { fileClock: aMinuteOn })).toMatchObject({ changed: true });
    expect(Object.keys((await readHashCache(out)).files)).toHaveLength(2);
    const tree = await snapshotTree(out);
    const again = await publishPanel(input, out, { fileClock: aMinuteOn });
    expect(again).toMatchObject({ changed: false, months: [], files_written: [], cards_rendered: 0 });
    // It stopped before assembling: it never entered the writing phase.
    expect(Object.keys(again.phases)).toEqual(['hashing']);
    expect(await snapshotTree(out)).toEqual(tree);
  }, 60_000);

  it('assembles again when the cards mode, base URL, feed or a document differs from the live publication', async () => {
    const base = { runs: { 'platform-stores': { '2026-10': 'a'.repeat(64), '2026-09': 'b'.repeat(64) } }, feed: [], baseUrl: 'https://stats.example.com', cards: 'none' as const };
    const key = await assemblyKey(base);
    // Key order does not matter; every input does.
    expect(await assemblyKey({ ...base, runs: { 'platform-stores': { '2026-09': 'b'.repeat(64), '2026-10': 'a'.repeat(64) } } })).toBe(key);
    expect(await assemblyKey({ ...base, cards: 'latest' })).not.toBe(key);
    expect(await assemblyKey({ ...base, baseUrl: 'https://other.example.com' })).not.toBe(key);
    expect(await assemblyKey({ ...base, runs: { 'platform-stores': { '2026-10': 'c'.repeat(64), '2026-09': 'b'.repeat(64) } } })).not.toBe(key);
    expect(await assemblyKey({ ...base, feed: [{ kind: 'release', month: '2026-10', completed_at: 'x', guid: 'release:2026-10', slugs: ['platform-stores'] }] })).not.toBe(key);
  });

  it('takes the long way when the live publication has no assembly key (written by an older version)', async () => {
    const input = await dirs.make();
    const out = path.join(await dirs.make(), 'out');
    await generate(input, { stores: 300, seed: 'hc', from: '2026-10', to: '2026-10' });
    await publishPanel(input, out, { fileClock: aMinuteOn });
    const live = path.join(out, '.releases', 'current', 'state.json');
    const state = JSON.parse(await readFile(live, 'utf8')) as { assembly?: string };
    delete state.assembly;
    await writeFile(live, JSON.stringify(state, null, 2) + '\n');
    const again = await publishPanel(input, out, { fileClock: aMinuteOn });
    expect(again.changed).toBe(false);
    expect(Object.keys(again.phases)).toContain('writing');
  }, 60_000);
});
