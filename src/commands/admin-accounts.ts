/** storelens accounts import FILE: NDJSON, one account per line with at least store_id and score. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { type AccountInput, importAccounts } from '../accounts/store.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

const nullableText = z.string().nullable().optional();

const accountLine = z.object({
  store_id: z.string().min(1),
  score: z.number(),
  domain: nullableText,
  country: nullableText,
  category: nullableText,
  plan: nullableText,
  in_market: z.boolean().optional(),
  evidence: z.array(z.record(z.string(), z.unknown())).optional(),
});

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
    const r = accountLine.safeParse(value);
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
