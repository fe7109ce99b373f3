/** storelens accounts import FILE: NDJSON, one account per line with at least store_id and score, each store_id once (accounts/imported.ts). */
import { readFile } from 'node:fs/promises';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { type AccountInput, importAccounts } from '../accounts/store.js';
import { ImportLine } from '../accounts/imported.js';
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
      throw new CliError(`${file}: line ${i + 1}: not valid JSON`);
    }
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

export async function importAccountsCommand(file: string, opts: Config<'accounts import'>, env: Env): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new CliError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const accounts = parseAccountsNdjson(file, text);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const r = await importAccounts(db, ws.id, accounts, env.now());
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
