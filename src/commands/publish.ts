import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { progress } from './progress.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkPanel } from '../panel/contract.js';
import { findContactsFile, writeCheckedContacts } from '../contacts/source.js';
import { listPanel } from '../panel/read.js';
import { publish } from '../publish/pipeline.js';
import type { Config } from '../settings/config.js';

/** `--base-url` and `--month` are checked as they are parsed (src/settings/values.ts). */
export async function runPublish(flags: Config<'publish'>, env: Env): Promise<void> {
  if (flags.check) return runCheck(flags, env);
  if (Boolean(flags.month) === Boolean(flags.all)) throw new CliError('publish needs exactly one of --month YYYY-MM or --all');
  const bar = progress(env, 'publish');
  const summary = await publish({
    input: flags.input,
    out: flags.out,
    months: flags.all ? 'all' : flags.month!,
    baseUrl: flags.baseUrl,
    cards: flags.cards,
    runs: flags.runs,
    now: env.now,
    onProgress: (m) => bar.update(m),
    onPhase: (p) => bar.phase(p),
    onWarning: (m) => bar.note(`warning: ${m}`),
    allowShrink: flags.allowShrink,
    allowNewIds: flags.allowNewIds,
    memoryLimit: flags.memoryLimit,
  });
  bar.done(summary.changed ? `published ${summary.months.length} month(s)` : 'no changes');
  if (flags.json) {
    env.stdout.write(JSON.stringify(summary) + '\n');
  } else if (!summary.changed) {
    env.stderr.write(`no changes: ${flags.out} already publishes this input\n`);
    if (summary.runs.length) env.stderr.write(`wrote the stores and signals of ${summary.runs.join(', ')} to ${flags.runs}\n`);
  } else {
    const parts = [
      summary.releases.length ? `released ${summary.releases.join(', ')}` : '',
      summary.corrections.length ? `corrected ${summary.corrections.join(', ')}` : '',
      `${summary.stats} stats (${summary.suppressed} suppressed)`,
      `${summary.files_written.length} files written`,
      summary.cards_rendered ? `${summary.cards_rendered} cards rendered` : '',
      summary.runs.length ? `stores and signals of ${summary.runs.length} month(s) written to ${flags.runs}` : '',
    ].filter(Boolean);
    env.stderr.write(`published to ${flags.out} (latest ${summary.latest_month}): ${parts.join('; ')}\n`);
  }
}

/**
 * `publish --check`: every input check on every file of the panel, writing nothing (no output
 * or runs folder). Findings go to stdout, one a line; exit 2 when there are any.
 */
async function runCheck(flags: Config<'publish'>, env: Env): Promise<void> {
  const files = await listPanel(flags.input);
  const found = await checkPanel(files, flags.allowShrink ?? false, flags.allowNewIds ?? false);
  const source = await findContactsFile(flags.input);
  const contacts = source && (await contactsFinding(source));
  if (contacts) found.findings.push(contacts);
  for (const note of found.notes) env.stderr.write(`warning: ${note}\n`);
  if (flags.json) env.stdout.write(JSON.stringify({ input: flags.input, ok: found.findings.length === 0, ...found }) + '\n');
  else for (const finding of found.findings) env.stdout.write(`${finding}\n`);
  const months = `${files.length} month file(s) (${files[0].month} to ${files[files.length - 1].month})${source ? ` and ${path.basename(source)}` : ''}`;
  if (found.findings.length) throw new CliError(`${flags.input}: ${found.findings.length} finding(s) in ${months}; nothing was written`);
  const stores = found.months.reduce((sum, m) => sum + (m.stores ?? 0), 0);
  env.stderr.write(`${flags.input}: ${months}: ${stores} store-months, every check passed; nothing was written\n`);
}

/**
 * The contact source's first problem, as publish would refuse it, or null. Checked a record at a
 * time into a scratch file that is then removed, as publish checks it.
 */
async function contactsFinding(file: string): Promise<string | null> {
  let scratch: string | undefined;
  try {
    scratch = await mkdtemp(path.join(tmpdir(), 'storelens-check-'));
    await writeCheckedContacts(file, path.join(scratch, 'contacts.ndjson'));
    return null;
  } catch (e) {
    if (e instanceof CliError) return e.message;
    throw e;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
