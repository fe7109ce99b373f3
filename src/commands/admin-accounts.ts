/** storelens accounts import FILE: NDJSON, one account per line with at least store_id and score (accounts/imported.ts). */
import { readFile } from 'node:fs/promises';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { type AccountInput, importAccounts } from '../accounts/store.js';
import { ImportLine } from '../accounts/imported.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

/** Parses and validates every line first, so a bad file writes nothing. */
export function parseAccountsNdjson(file: string, text: string): AccountInput[] {
  const out: AccountInput[] = [];
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
    output(
      env,
      opts,
      { workspace_id: ws.id, imported: accounts.length, inserted: r.inserted, updated: r.updated },
      `Imported ${accounts.length} accounts into ${ws.name} (${r.inserted} new, ${r.updated} updated)`,
    );
  });
}
