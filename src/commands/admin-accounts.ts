/** storelens accounts import FILE: NDJSON, one account per line with at least store_id and score, each store_id once (accounts/imported.ts). */
import { isUtf8 } from 'node:buffer';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { UNSTORABLE, unstorable } from '../core/storable-text.js';
import { clip, fileLines, keyNamedTwice, LineTooLong, NDJSON_BOM, notAnObject, notUtf8, sniffFile } from '../panel/read-errors.js';
import { type AccountInput, importAccounts } from '../accounts/store.js';
import { ImportLine } from '../accounts/imported.js';
import { ingestedMonths } from '../ingest/index.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';
import { stoppable } from './until-signal.js';
import { OUTSIDE_INPUT } from '../core/missing-input.js';

/**
 * The longest line an import reads, in bytes. An account line holds at most 100 reasons of a few
 * hundred characters (some 100 KB even with every character \u-escaped): a longer one is a file
 * that is not NDJSON (a JSON array, an export without line breaks), said as such rather than
 * gathered whole.
 */
export const IMPORT_LINE_MAX = 16 * 1024 * 1024;

/** A JSON array, on one line or pretty-printed over many, where the file is NDJSON. */
const ARRAY = 'a JSON array, where NDJSON has one account object per line: write each account on a line of its own';

/**
 * The lines of an import file checked one at a time, counted from 1, and the accounts they make.
 * A store_id listed on two lines is refused, naming both: which line was meant is the importer's
 * to say (as the panel and contact files refuse a repeated store), and a file imports exactly as
 * many accounts as lines.
 */
class ImportLines {
  readonly accounts: AccountInput[] = [];
  private readonly firstLine = new Map<string, number>();
  private opening = true;

  constructor(private readonly file: string) {}

  add(n: number, line: string): void {
    const { file } = this;
    if (!line.trim()) return;
    const opening = this.opening;
    this.opening = false;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      // A CRM's or a spreadsheet's export: said as such (before its BOM), not as a JSON error.
      if (opening && csvHeader(line)) {
        throw new CliError(`${file}: line ${n}: a CSV header (${JSON.stringify(clip(line.replace(/^\ufeff/, '')))}), where the file is NDJSON: one JSON object per line, such as {"store_id":"shop-1001","score":0.91}; convert the CSV to NDJSON first`);
      }
      if (n === 1 && line.startsWith('\ufeff')) throw new CliError(`${file}: line 1: ${NDJSON_BOM}`);
      if (opening && line.trimStart().startsWith('[')) throw new CliError(`${file}: line ${n}: ${ARRAY}`);
      const at = /position (\d+)/.exec((e as Error).message);
      throw new CliError(`${file}: line ${n}: not valid JSON${at ? ` (at character ${Number(at[1]) + 1})` : ''}`);
    }
    if (Array.isArray(value)) throw new CliError(`${file}: line ${n}: ${ARRAY}`);
    if (value === null || typeof value !== 'object') throw new CliError(`${file}: line ${n}: ${notAnObject(line, 'account')}`);
    const twice = keyNamedTwice(line, value);
    if (twice !== null) throw new CliError(`${file}: line ${n}: ${twice}`);
    // U+0000 and a lone surrogate reach a string only through a \u escape; no database column keeps them.
    const unkept = line.includes('\\u') ? unstorablePath(value) : null;
    if (unkept !== null) throw new CliError(`${file}: line ${n}: field ${unkept}: ${UNSTORABLE}`);
    const r = ImportLine.safeParse(value, OUTSIDE_INPUT);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      // A key the line format does not have (a CRM's own column, a typo): named as the field it is, with the ones there are.
      if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
        throw new CliError(`${file}: line ${n}: field ${issue.keys[0]}: not a field of an account line (an account line has ${Object.keys(ImportLine.shape).join(', ')})`);
      }
      throw new CliError(`${file}: line ${n}: field ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    const first = this.firstLine.get(r.data.store_id);
    if (first !== undefined) {
      throw new CliError(`${file}: line ${n}: field store_id: duplicate store_id ${JSON.stringify(r.data.store_id)} (first at line ${first}); an account appears once per file`);
    }
    this.firstLine.set(r.data.store_id, n);
    this.accounts.push(r.data);
  }

  /** The accounts, once every line is read; a file of no account (blank, as a failed export leaves) is refused, as the panel and contact files refuse one. */
  done(): AccountInput[] {
    if (this.accounts.length === 0) throw new CliError(`${this.file}: line 1: the file is empty (no accounts): nothing to import`);
    return this.accounts;
  }
}

/**
 * A first line of column names split by a comma, semicolon or tab (store_id among them, or two
 * names or more, none holding JSON's braces, brackets or colons), rather than a JSON value.
 */
function csvHeader(line: string): boolean {
  const text = line.replace(/^\ufeff/, '').trim();
  if (/^[[{]/.test(text)) return false;
  const cells = text.split(/[,;\t]/).map((cell) => cell.trim());
  if (cells.some((cell) => /^"?store[ _-]?id"?$/i.test(cell))) return true;
  return cells.length >= 2 && cells.every((cell) => /^"?[^"{}[\]:]{1,100}"?$/.test(cell));
}

/** Parses and validates every line of an import file's text (the file read by readAccountsNdjson). */
export function parseAccountsNdjson(file: string, text: string): AccountInput[] {
  const lines = new ImportLines(file);
  text.split(/\r?\n/).forEach((line, i) => lines.add(i + 1, line));
  return lines.done();
}

/**
 * Reads and validates every line of an import file before anything is written, so a bad file
 * writes nothing. Streamed line by line: a file of a million accounts with their reasons passes
 * the longest string JavaScript holds (512 MiB), and reads as a small one does.
 */
export async function readAccountsNdjson(file: string): Promise<AccountInput[]> {
  const lines = new ImportLines(file);
  let n = 0;
  try {
    // A compressed or UTF-16 file said as such, not as Latin-1.
    await sniffFile({ file, format: 'ndjson' });
    for await (const bytes of fileLines(file, IMPORT_LINE_MAX)) {
      n++;
      // Read as UTF-8 with replacement, Latin-1's é would become U+FFFD in a store id, silently.
      if (!isUtf8(bytes)) throw notUtf8(file, n);
      const line = bytes.toString('utf8');
      lines.add(n, line.endsWith('\r') ? line.slice(0, -1) : line);
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof LineTooLong) {
      throw new CliError(`${file}: line ${e.line}: longer than ${IMPORT_LINE_MAX / 1024 / 1024} MiB, which no account line is: NDJSON has one account object per line (a JSON array or a file without line breaks is not NDJSON)`);
    }
    throw new CliError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return lines.done();
}

/** The path (`evidence.0.detail`) of the first member name or string of `value` no database keeps as it is, or null. */
function unstorablePath(value: unknown, at: string[] = []): string | null {
  if (typeof value === 'string') return unstorable(value) ? at.join('.') || '(line)' : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [k, v] of Object.entries(value)) {
    if (unstorable(k)) return [...at, 'a member name'].join('.');
    const found = unstorablePath(v, [...at, k]);
    if (found !== null) return found;
  }
  return null;
}

export async function importAccountsCommand(file: string, opts: Config<'accounts import'>, env: Env): Promise<void> {
  const accounts = await readAccountsNdjson(file);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    // Ctrl-C or SIGTERM stops the import between two parts of its writing: the version it was
    // writing is taken back, so the workspace's accounts stay as they were, and it says so.
    const r = await stoppable(
      (abort) => importAccounts(db, ws.id, accounts, env.now(), abort),
      (signal) => `accounts import stopped by ${signal}: nothing imported (the accounts of ${ws.name} are as they were)`,
    );
    // Once store data is ingested the ranking owns the accounts: the next re-rank (seconds after,
    // in a running api) replaces these rows. Said, not left to be found by their absence.
    const months = await ingestedMonths(db.kysely);
    if (months.length && accounts.length) {
      env.stderr.write(
        `warning: this database holds ingested store data (${months[0]!.month} to ${months.at(-1)!.month}): the workspace's accounts are ranked from it, ` +
          'and the next re-ranking replaces the imported rows (accounts import is for a database without store data)\n',
      );
    }
    // Accounts written, not lines read: both outputs count what the import made new or updated.
    const imported = r.inserted + r.updated;
    output(
      env,
      opts,
      { workspace_id: ws.id, imported, inserted: r.inserted, updated: r.updated },
      `Imported ${imported} account${imported === 1 ? '' : 's'} into ${ws.name} (${r.inserted} new, ${r.updated} updated)`,
    );
  });
}
