/**
 * An account row's evidence as the API shows it: the row keeps each input's value (it changes
 * only with the data), the workspace's model supplies the weights, so the contributions add up
 * to the logit the row was scored with. Rows loaded by `accounts import` (model version 0) show
 * the evidence the import wrote (accounts/imported.ts): already weighed, its contributions add up too.
 *
 * A refresh stores its evidence packed (packEvidence: each item an array, no field names), so a
 * row with its evidence fits in one database page and a million of them write a third of the
 * bytes; readers unpack it (unpackEvidence), and still read rows stored as objects (imports, and
 * rows written before).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { explain, type InputSpace, type StoredEvidence, type StoreSnapshot, type Term, type TermMatrix, terms } from './model.js';
import { describeTerm, keyDetail, SIZE_COLUMN, type SizeKey, sizeDetail, splitKey } from './prior.js';

/** Weights of the models this process has read, by workspace and version (a refit is a new version). */
const weightsCache = new Map<string, Readonly<Record<string, number>>>();
const CACHE_ENTRIES = 200;

/** The weights of a workspace's model version, or null when that version is no longer kept. */
export async function modelWeights(q: Kysely<Database>, workspaceId: string, version: number): Promise<Readonly<Record<string, number>> | null> {
  const key = `${workspaceId}:${version}`;
  const hit = weightsCache.get(key);
  if (hit) return hit;
  const row = await q.selectFrom('model_weights').select('weights').where('workspace_id', '=', workspaceId).where('version', '=', version).executeTakeFirst();
  if (!row) return null;
  const weights = JSON.parse(row.weights) as Record<string, number>;
  if (weightsCache.size >= CACHE_ENTRIES) weightsCache.delete(weightsCache.keys().next().value!);
  weightsCache.set(key, weights);
  return weights;
}

/** An item's kind, packed. */
const KIND_CODE = { intercept: 'i', feature: 'f', signal: 's' } as const;
const KIND_OF: Readonly<Record<string, StoredEvidence['kind']>> = { i: 'intercept', f: 'feature', s: 'signal' };

/** A refresh's stored evidence as the row keeps it: each item [kind, key, detail, x] (then the month of a signal). */
export function packEvidence(items: readonly StoredEvidence[]): string {
  return JSON.stringify(items.map((e) => (e.month === undefined ? [KIND_CODE[e.kind], e.key, e.detail, e.x] : [KIND_CODE[e.kind], e.key, e.detail, e.x, e.month])));
}

/** How packTerms writes each input of a space: its key as JSON text, and whether its detail follows from the key or from a size. */
interface PackedInput {
  quoted: string;
  form: 'key' | 'size' | 'other';
  size?: SizeKey;
}
const packedInputs = new WeakMap<InputSpace, PackedInput[]>();

function packedInputsOf(space: InputSpace): PackedInput[] {
  let p = packedInputs.get(space);
  if (!p) {
    p = space.inputs.map((inp) => {
      const [group, name] = splitKey(inp.key);
      const quoted = JSON.stringify(inp.key);
      if (group === 'size') return { quoted, form: 'size', size: name as SizeKey };
      return { quoted, form: keyDetail(inp.key) !== undefined ? 'key' : 'other' };
    });
    packedInputs.set(space, p);
  }
  return p;
}

/**
 * Store k's stored evidence (storedEvidence over its terms), packed straight from its row of the
 * term matrix and shorter than packEvidence: an item whose detail follows from its key
 * (keyDetail) is its key alone when x is 1 (as it is for every one of them a refresh makes), else
 * `[key, x]`; a size `[key, x, value]` (its detail made from the store's value again,
 * sizeDetail; x has at most SIZE_DECIMALS decimals, model.ts); a signal as packEvidence writes it
 * (its terms made again, only for a store that has one). unpackEvidence gives back the same items.
 */
export function packTerms(space: InputSpace, s: StoreSnapshot, m: TermMatrix, k: number): string {
  const inputs = packedInputsOf(space);
  const from = m.start[k];
  const to = m.start[k + 1];
  let ts: Term[] | undefined;
  let out = '[';
  for (let t = from; t < to; t++) {
    const p = inputs[m.input[t]];
    const x = m.value[t];
    if (t > from) out += ',';
    const v = p.form === 'size' ? s[SIZE_COLUMN[p.size!]] : null;
    if (p.form === 'key' && x === 1) out += p.quoted;
    else if (p.form === 'key' && Number.isFinite(x)) out += `[${p.quoted},${x}]`;
    else if (p.form === 'size' && v !== null && Number.isFinite(v) && Number.isFinite(x)) out += `[${p.quoted},${x},${v}]`;
    else {
      ts ??= terms(space, s);
      if (ts.length !== to - from) throw new Error(`store ${s.store_id}: its terms are not its row of the term matrix`);
      const e = describeTerm(space.inputs[m.input[t]], ts[t - from], s);
      out += JSON.stringify(e.month === undefined ? [KIND_CODE[e.kind], e.key, e.detail, e.x] : [KIND_CODE[e.kind], e.key, e.detail, e.x, e.month]);
    }
  }
  return out + ']';
}

/** A row's stored evidence as items: packed ones (packTerms, packEvidence; a bare key is a key-only item of x 1) unpacked, items stored as objects as they are. */
export function unpackEvidence(text: string): Record<string, unknown>[] {
  return (JSON.parse(text) as unknown[]).map((item) => {
    if (typeof item === 'string') return { kind: item === 'intercept' ? 'intercept' : 'feature', key: item, detail: keyDetail(item)!, x: 1 };
    if (!Array.isArray(item)) return item as Record<string, unknown>;
    let e: StoredEvidence;
    if (item.length === 2) {
      const [key, x] = item as [string, number];
      e = { kind: key === 'intercept' ? 'intercept' : 'feature', key, detail: keyDetail(key)!, x };
    } else if (item.length === 3) {
      const [key, x, v] = item as [string, number, number];
      e = { kind: 'feature', key, detail: sizeDetail(splitKey(key)[1], v, x), x };
    } else {
      const [kind, key, detail, x, month] = item as [string, string, string, number, string | undefined];
      e = { kind: KIND_OF[kind], key, detail, x };
      if (month !== undefined) e.month = month;
    }
    return e as unknown as Record<string, unknown>;
  });
}

/** Evidence of rows read together (one model read for the lot). */
export async function rowsEvidence(
  q: Kysely<Database>,
  workspaceId: string,
  rows: ReadonlyArray<{ model_version: number; evidence: string }>,
): Promise<Record<string, unknown>[][]> {
  const versions = new Set(rows.map((r) => r.model_version).filter((v) => v > 0));
  const weights = new Map<number, Readonly<Record<string, number>> | null>();
  for (const v of versions) weights.set(v, await modelWeights(q, workspaceId, v));
  return rows.map((r) => {
    const stored = unpackEvidence(r.evidence);
    const w = r.model_version > 0 ? weights.get(r.model_version) : null;
    return w ? (explain(stored as unknown as StoredEvidence[], w) as unknown as Record<string, unknown>[]) : stored;
  });
}
