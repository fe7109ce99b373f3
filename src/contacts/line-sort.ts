/**
 * The checked contacts in (store, email) order, held in memory up to a budget and spilled
 * beyond it: each full batch is sorted and written to a run file, and the runs are merged as they
 * are read back, so memory does not grow with the number of contacts (contacts/source.ts,
 * writeCheckedContacts). The order is JavaScript's string order, contactsData's.
 *
 * A run file holds its entries one after the other, each a header line of six decimal numbers
 * (row, then the lengths in UTF-16 code units of the store id, email, name, role and source, -1
 * for null) followed by the five texts, so no character of a cell needs escaping.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { StoreContact } from './store.js';

/** A checked contact waiting for its place, with its row in the file. */
export interface SortEntry extends StoreContact {
  row: number;
}

/** Store id, then email, as contactsData orders them (JavaScript's UTF-16 code unit order). */
export const byStoreThenEmail = (a: StoreContact, b: StoreContact): number =>
  a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : a.email < b.email ? -1 : a.email > b.email ? 1 : 0;

/** What an entry is counted as against the budget: its texts and about what the heap adds for them. */
const entryBytes = (e: SortEntry): number => e.store_id.length + e.email.length + (e.name?.length ?? 0) + (e.role?.length ?? 0) + (e.source?.length ?? 0) + 128;

const lengthOf = (s: string | null): number => (s === null ? -1 : s.length);

/** Bytes a run file is read by. */
const CHUNK = 1 << 20;

/** Entries written to a run file at a time. */
const WRITE_ENTRIES = 2048;

export class LineSort {
  private batch: SortEntry[] = [];
  private bytes = 0;
  private runs: string[] = [];
  private dir: string | undefined;

  /** `budget`: about the bytes the entries in memory may take; `spillDir`: where run files are made (a folder of their own inside it). */
  constructor(
    private readonly spillDir: string,
    private readonly budget: number,
  ) {}

  /** Adds an entry; when `full` is then true the caller spills before adding more. */
  push(e: SortEntry): void {
    this.batch.push(e);
    this.bytes += entryBytes(e);
  }

  get full(): boolean {
    return this.bytes > this.budget;
  }

  /** Writes the batch, sorted, as a run file and forgets it. */
  async spill(): Promise<void> {
    if (this.dir === undefined) {
      this.dir = path.join(this.spillDir, `contacts-sort-${process.pid}-${randomBytes(4).toString('hex')}`);
      await mkdir(this.dir, { recursive: true });
    }
    const file = path.join(this.dir, `${this.runs.length}.run`);
    this.runs.push(file);
    await writeRun(file, this.batch.sort(byStoreThenEmail));
    this.batch = [];
    this.bytes = 0;
  }

  /** Every entry, in order, in batches (the batch in memory and the runs merged). */
  async *sorted(): AsyncGenerator<SortEntry[]> {
    const last = this.batch.sort(byStoreThenEmail);
    this.batch = [];
    if (this.runs.length === 0) {
      yield last;
      return;
    }
    const sources: RunSource[] = [new RunSource(last, null)];
    for (const file of this.runs) sources.push(new RunSource([], await open(file, 'r')));
    try {
      yield* merge(sources);
    } finally {
      for (const s of sources) await s.close();
    }
  }

  /** Removes the run files. */
  async close(): Promise<void> {
    if (this.dir !== undefined) await rm(this.dir, { recursive: true, force: true });
  }
}

async function writeRun(file: string, entries: readonly SortEntry[]): Promise<void> {
  const out = createWriteStream(file);
  const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
  failed.catch(() => {});
  for (let i = 0; i < entries.length; i += WRITE_ENTRIES) {
    const text = entries
      .slice(i, i + WRITE_ENTRIES)
      .map((e) => `${e.row} ${e.store_id.length} ${e.email.length} ${lengthOf(e.name)} ${lengthOf(e.role)} ${lengthOf(e.source)}\n${e.store_id}${e.email}${e.name ?? ''}${e.role ?? ''}${e.source ?? ''}`)
      .join('');
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
}

/** One sorted source of the merge: entries at hand, and the run file that gives more (null: none). */
class RunSource {
  at = 0;
  private text = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly buffer = Buffer.allocUnsafe(CHUNK);

  constructor(
    public entries: SortEntry[],
    private handle: FileHandle | null,
  ) {}

  get head(): SortEntry {
    return this.entries[this.at]!;
  }

  /** Makes `head` the next entry; false when the source has none left. */
  async fill(): Promise<boolean> {
    while (this.at >= this.entries.length) {
      if (this.handle === null) return false;
      const { bytesRead } = await this.handle.read(this.buffer, 0, CHUNK, null);
      if (bytesRead === 0) {
        this.text += this.decoder.end();
        if (this.text !== '') throw new Error(`a contacts sort run ends inside an entry`);
        await this.close();
        return false;
      }
      this.text += this.decoder.write(this.buffer.subarray(0, bytesRead));
      this.entries = [];
      this.at = 0;
      this.parse();
    }
    return true;
  }

  /** Takes every whole entry off the front of `text`. */
  private parse(): void {
    const t = this.text;
    const n = [0, 0, 0, 0, 0, 0];
    let p = 0;
    for (;;) {
      // The header: six integers, each ended by a space but the last, ended by the line break.
      let at = p;
      for (let i = 0; i < 6; i++) {
        let v = 0;
        let negative = false;
        for (let c = t.charCodeAt(at++); c !== 0x20 && c !== 0x0a; c = t.charCodeAt(at++)) {
          if (c === 0x2d) negative = true;
          else if (c >= 0x30 && c <= 0x39) v = v * 10 + c - 0x30;
          else {
            // NaN: the text ends inside the header.
            this.text = t.slice(p);
            return;
          }
        }
        n[i] = negative ? -1 : v;
      }
      const end = at + Math.max(n[1]!, 0) + Math.max(n[2]!, 0) + Math.max(n[3]!, 0) + Math.max(n[4]!, 0) + Math.max(n[5]!, 0);
      if (at > t.length || end > t.length) break;
      const text = (length: number): string | null => (length < 0 ? null : t.slice(at, (at += length)));
      this.entries.push({ row: n[0]!, store_id: text(n[1]!)!, email: text(n[2]!)!, name: text(n[3]!), role: text(n[4]!), source: text(n[5]!) });
      p = at;
    }
    this.text = t.slice(p);
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close();
  }
}

/** The sources' entries in order, by a binary heap of the sources' heads. */
async function* merge(all: RunSource[]): AsyncGenerator<SortEntry[]> {
  const heap: RunSource[] = [];
  for (const s of all) if (await s.fill()) heap.push(s);
  const less = (i: number, j: number) => byStoreThenEmail(heap[i]!.head, heap[j]!.head) < 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let out: SortEntry[] = [];
  while (heap.length) {
    const top = heap[0]!;
    out.push(top.head);
    top.at++;
    if (top.at >= top.entries.length && !(await top.fill())) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length) down(0);
    if (out.length >= 4096) {
      yield out;
      out = [];
    }
  }
  if (out.length) yield out;
}
