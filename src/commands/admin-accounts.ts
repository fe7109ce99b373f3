/** storelens accounts import FILE: NDJSON, one account per line with at least store_id and score, each store_id once (accounts/imported.ts). */
import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { UNSTORABLE, unstorable } from '../core/storable-text.js';
import { firstNonUtf8Line, NDJSON_BOM, notUtf8 } from '../panel/read-errors.js';
import { type AccountInput, importAccounts } from '../accounts/store.js';
import { ImportLine } from '../accounts/imported.js';
import { ingestedMonths } from '../ingest/index.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

/**
 * Parses and validates every line first, so a bad file writes nothing. A store_id listed on two
 * lines is refused, naming both: which line was meant is the importer's to say (as the panel and
 * contact files refuse a repeated store), and a file imports exactly as many accounts as lines.
 */
export function parseAccountsNdjson(file: string, text: string): AccountInput[] {
  const out: AccountInput[] = [];
  const firstLine = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (i === 0 && line.startsWith('\ufeff')) throw new CliError(`${file}: line 1: ${NDJSON_BOM}`);
      throw new CliError(`${file}: line ${i + 1}: not valid JSON`);
    }
    // U+0000 and a lone surrogate reach a string only through a \u escape; no database column keeps them.
    const unkept = line.includes('\\u') ? unstorablePath(value) : null;
    if (unkept !== null) throw new CliError(`${file}: line ${i + 1}: field ${unkept}: ${UNSTORABLE}`);
    const r = ImportLine.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new CliError(`${file}: line ${i + 1}: field ${issue.path.join('.') || '(line)'}: ${issue.message}`);
    }
    const first = firstLine.get(r.data.store_id);
    if (first !== undefined) {
      throw new CliError(`${file}: line ${i + 1}: field store_id: duplicate store_id ${JSON.stringify(r.data.store_id)} (first at line ${first}); an account appears once per file`);
    }
    firstLine.set(r.data.store_id, i + 1);
    out.push(r.data);
  });
  return out;
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
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new CliError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // Read as UTF-8 with replacement, Latin-1's é would become U+FFFD in a store id, silently.
  if (!isUtf8(bytes)) throw notUtf8(file, (await firstNonUtf8Line(file)) ?? 1);
  const text = bytes.toString('utf8');
  const accounts = parseAccountsNdjson(file, text);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const r = await importAccounts(db, ws.id, accounts, env.now());
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
      `Imported ${imported} accounts into ${ws.name} (${r.inserted} new, ${r.updated} updated)`,
    );
  });
}
