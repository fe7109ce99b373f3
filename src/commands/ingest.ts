/** `storelens ingest`: load the runs folder publish wrote into the workspace database, once. */
import type { Env } from '../core/env.js';
import { contactsWithoutStore } from '../contacts/index.js';
import { ingestRuns } from '../ingest/ingest.js';
import { readRunsIndex } from '../ingest/runs-folder.js';
import { evaluateWatches } from '../watches/evaluate.js';
import { progress } from './progress.js';
import type { Config } from '../settings/config.js';
import { output, withAdminDb } from './admin-db.js';

export type IngestCommandOptions = Pick<Config<'ingest'>, 'runs'> & Partial<Config<'ingest'>>;

export async function runIngest(opts: IngestCommandOptions, env: Env): Promise<void> {
  // The runs folder first: a missing or malformed one is refused before the database is opened
  // (and migrated), so a mistake in --runs leaves the database as it was.
  await readRunsIndex(opts.runs);
  await withAdminDb(opts, env, async (db) => {
    const bar = progress(env, 'ingest');
    const s = await ingestRuns(db, opts.runs, { now: env.now, onProgress: (m) => bar.update(m) });
    const changed = s.months.length > 0 || s.contacts !== undefined;
    bar.done(changed ? `loaded ${s.months.length} months` : 'nothing new');
    // Every ingest checks the watches (a no-op for a watch whose inputs did not move).
    const w = await evaluateWatches(db, env.now());
    const contacts = s.contacts === undefined ? '' : `; the contact source (${s.contacts} contacts)`;
    const text = s.months.length
      ? `ingested ${s.months.length} month${s.months.length === 1 ? '' : 's'} (${s.months.join(', ')}): ${s.stores} store rows, ${s.signals} signals${contacts} into ${db.location}`
      : s.contacts !== undefined
        ? `ingested the contact source (${s.contacts} contacts) into ${db.location}`
        : `${db.location} is up to date with ${opts.runs}`;
    if (s.contacts) {
      // A contact source keyed by something else than the panel's store ids loads whole and matches nothing.
      const orphans = await contactsWithoutStore(db.kysely);
      if (orphans.count) {
        env.stderr.write(
          `warning: ${orphans.count} of the ${s.contacts} contacts of the contact source name a store no ingested month holds (the first by store_id: ${JSON.stringify(orphans.first)}): ` +
            "discovery never suggests them; a contact's store_id is the panel's store_id, matched exactly\n",
        );
      }
    }
    if (w.checked) env.stderr.write(`checked ${w.checked} watch${w.checked === 1 ? '' : 'es'} (${w.changed} changed health)\n`);
    // The same keys every time (a count of what this ingest loaded: 0 when nothing was).
    output(env, opts, { months: s.months, stores: s.stores, signals: s.signals, contacts: s.contacts ?? 0 }, text);
  });
}
