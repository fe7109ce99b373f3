/**
 * Publish + serve together: small panels whose card count stays modest, edits of a panel
 * month, the built CLI as a child process, the live release on disk, and a check that
 * `serve` answers exactly what that release holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Manifest } from '../../src/publish/manifest.js';
import { bytesEtag } from '../../src/publish/run-id.js';
import { manifestKeyToPath } from '../../src/core/public-paths.js';
import { raw } from '../serve/http.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'storelens.js');

type Row = Record<string, string>;

async function rewriteCsv(file: string, edit: (rows: Row[]) => Row[]): Promise<void> {
  const rows = parse(await readFile(file), { columns: true }) as Row[];
  await writeFile(file, stringify(edit(rows), { header: true, columns: Object.keys(rows[0]!) }));
}

/**
 * Makes a generated panel publish few stats (so few cards): category, plan and apps become
 * unknown, and country takes one of `countries` (none: unknown too), spread by store number.
 * Only the `all` cells and the given countries are then published.
 */
export async function narrowPanel(dir: string, countries: string[] = []): Promise<void> {
  for (const name of (await readdir(dir)).filter((f) => f.endsWith('.csv'))) {
    await rewriteCsv(path.join(dir, name), (rows) =>
      rows.map((r) => {
        const n = Number(r.store_id!.replace(/\D/g, ''));
        return { ...r, category: '', plan: '', apps: '', country: countries.length ? countries[n % countries.length]! : '' };
      }),
    );
  }
}

/** Rewrites the first `count` stores of a panel file with `edit`. */
export function editRows(file: string, count: number, edit: (row: Row) => Row): Promise<void> {
  return rewriteCsv(file, (rows) => rows.map((r, i) => (i < count ? edit(r) : r)));
}

/** Flips a boolean column (`true` ⇄ `false`, unknown ⇒ `true`) for the first `count` stores of a panel file. */
export function flipColumn(file: string, column: string, count: number): Promise<void> {
  return editRows(file, count, (r) => ({ ...r, [column]: r[column] === 'true' ? 'false' : 'true' }));
}

/** Drops the first `count` stores of a panel file. */
export function dropRows(file: string, count: number): Promise<void> {
  return rewriteCsv(file, (rows) => rows.slice(count));
}

export interface BinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `node bin/storelens.js …args` as a child process (build dist/ first: `npm test` does).
 * `databaseUrl`: the DATABASE_URL it runs with; null runs it on SQLite whatever the tests run
 * with; absent, it inherits the tests'.
 */
export function spawnBin(args: string[], o: { databaseUrl?: string | null } = {}): { child: ChildProcess; done: Promise<BinResult> } {
  const env: NodeJS.ProcessEnv = { ...process.env, TZ: 'UTC' };
  if (o.databaseUrl === null) delete env.DATABASE_URL;
  else if (o.databaseUrl !== undefined) env.DATABASE_URL = o.databaseUrl;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr!.on('data', (c: Buffer) => (stderr += String(c)));
  const done = new Promise<BinResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export const runBin = (args: string[], o: { databaseUrl?: string | null } = {}): Promise<BinResult> => spawnBin(args, o).done;

/** The live release as it is on disk: its folder name, folder and manifest. */
export async function liveRelease(out: string): Promise<{ id: string; dir: string; manifest: Manifest }> {
  const id = await readlink(path.join(out, '.releases', 'current'));
  const dir = path.join(out, '.releases', id);
  return { id, dir, manifest: JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest };
}

const CHANGES_KEY = 'api/data/changes.json';
const JSON_ETAG = /^"([a-z-]+)-(\d{4}-\d{2})-[0-9a-f]{16}"$/;

/**
 * Problems with the release on disk: every manifest entry's file exists with `bytes` bytes;
 * a non-JSON file's ETag is the hash of its bytes; a JSON document's ETag is
 * `"{slug}-{month}-{run16}"` for its own slug and month (the change list, JSON but no document,
 * the hash of its bytes). Empty when all is well.
 */
export async function manifestMismatches(dir: string, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  for (const [key, entry] of Object.entries(manifest.files)) {
    const bytes = await readFile(path.join(dir, key)).catch(() => null);
    if (!bytes) {
      problems.push(`${key}: listed but missing`);
      continue;
    }
    if (bytes.length !== entry.bytes) problems.push(`${key}: ${bytes.length} bytes, manifest says ${entry.bytes}`);
    if (key.endsWith('.json') && key !== CHANGES_KEY) {
      const doc = JSON.parse(bytes.toString('utf8')) as { slug: string; month: string };
      const m = JSON_ETAG.exec(entry.etag);
      if (!m || m[1] !== doc.slug || m[2] !== doc.month) problems.push(`${key}: ETag ${entry.etag} does not name ${doc.slug} ${doc.month}`);
    } else if (entry.etag !== bytesEtag(bytes)) {
      problems.push(`${key}: ETag ${entry.etag}, bytes hash to ${bytesEtag(bytes)}`);
    }
  }
  return problems;
}

/**
 * Problems with what `serve` at `base` answers for every manifest entry of a release: status
 * 200, the entry's ETag, Last-Modified and Content-Type, the bytes of the file on disk, JSON
 * that parses, and `/api/data/{slug}` equal to the latest month's document. Empty when all is well.
 */
export async function servedMismatches(base: string, dir: string, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  const bodies = new Map<string, Buffer>();
  await Promise.all(
    Object.entries(manifest.files).map(async ([key, entry]) => {
      const url = manifestKeyToPath(key);
      if (url === null) return void problems.push(`${key}: not a public path`);
      const res = await raw(base, url);
      if (res.status !== 200) return void problems.push(`${url}: ${res.status}`);
      if (res.headers.etag !== entry.etag) problems.push(`${url}: ETag ${res.headers.etag}, manifest ${entry.etag}`);
      if (res.headers['last-modified'] !== entry.last_modified) problems.push(`${url}: Last-Modified ${res.headers['last-modified']}, manifest ${entry.last_modified}`);
      if (res.headers['content-type'] !== entry.content_type) problems.push(`${url}: Content-Type ${res.headers['content-type']}`);
      const disk = await readFile(path.join(dir, key));
      if (!res.body.equals(disk)) problems.push(`${url}: body differs from ${key} on disk`);
      if (key.endsWith('.json')) {
        try {
          JSON.parse(res.text);
        } catch {
          problems.push(`${url}: JSON does not parse`);
        }
      }
      bodies.set(key, res.body);
    }),
  );
  for (const key of Object.keys(manifest.files)) {
    const m = /^api\/data\/([^/]+)\.json$/.exec(key);
    if (!m || !manifest.latest_month || key === CHANGES_KEY) continue;
    const month = bodies.get(`api/data/${m[1]}/${manifest.latest_month}.json`);
    if (!month || !bodies.get(key)?.equals(month)) problems.push(`/api/data/${m[1]}: not the ${manifest.latest_month} document`);
    if (manifest.files[key]!.etag !== manifest.files[`api/data/${m[1]}/${manifest.latest_month}.json`]?.etag) {
      problems.push(`/api/data/${m[1]}: ETag is not the ${manifest.latest_month} document's`);
    }
  }
  return problems.sort();
}

/** The same seed gives the same delays. */
export { seededRandom } from '../../src/core/random.js';
