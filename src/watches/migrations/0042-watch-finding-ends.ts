/**
 * 0042_watch_finding_ends: a watch event that records a finding says which finding it is
 * (`finding`: the same store, kind and subject in the same watch and month) and when a later
 * check of that month no longer found it (`ended_at`, null while it holds). The brief lists the
 * findings that hold; one that holds again after it ended is a new event.
 *
 * Events recorded before: a finding's event id was `wev_` and its finding key, so the key is read
 * back from the id; health changes have none. Which of them still hold is not known, so every
 * watch is checked again at the next check (generation null), which ends those that no longer do.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('watch_events').addColumn('finding', 'text').execute();
    await db.schema.alterTable('watch_events').addColumn('ended_at', 'text').execute();
    await sql`update watch_events set finding = substr(id, 5) where kind <> 'health_changed'`.execute(db);
    // At most one open event per finding of a watch's month: a check ends it before recording it again.
    await sql`create unique index watch_events_open_finding on watch_events (watch_id, month, finding) where ended_at is null and finding is not null`.execute(db);
    await db.updateTable('watches').set({ generation: null }).execute();
  },
};
