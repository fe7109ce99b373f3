/**
 * 0009_ranking_versions: a ranking becomes a version written beside the current one and made
 * current in one small transaction. Adds workspaces.ranking_seq and creates ranking_versions,
 * rankings, ranking_positions and ranking_details (WITHOUT ROWID on SQLite only); copies each
 * workspace's current ranking in as its first version; then drops account_details (0004),
 * ranking_history (0002), the score-order indexes of accounts (0001) and the accounts columns
 * that now live in rankings and ranking_details (domain, country, category, plan, score, ...).
 *
 * Kysely runs migrations in key order, so this one runs after 0008; it reads only tables of
 * 0001-0004.
 */
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // A ranking is written as a whole new version beside the current one (in short
    // transactions), then made current by one small transaction; readers and cursors read
    // one version. ranking_versions says which rows and details a version has.
    // Starts where ranking_version starts (1): the first version written is 2.
    await db.schema.alterTable('workspaces').addColumn('ranking_seq', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await sql`update workspaces set ranking_seq = ranking_version`.execute(db);
    await db.schema
      .createTable('ranking_versions')
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('gen', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .addColumn('superseded_ms', 'bigint')
      .addPrimaryKeyConstraint('ranking_versions_pk', ['workspace_id', 'version'])
      .execute();
    let rankings = db.schema
      .createTable('rankings')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('pos', 'integer', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('score', 'double precision', (c) => c.notNull())
      .addColumn('logit', 'double precision', (c) => c.notNull())
      .addColumn('in_market', 'integer', (c) => c.notNull())
      .addColumn('explore', 'integer', (c) => c.notNull())
      .addColumn('model_version', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rankings_pk', ['workspace_id', 'version', 'pos']);
    let positions = db.schema
      .createTable('ranking_positions')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('pos', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_positions_pk', ['workspace_id', 'version', 'store_id']);
    let details = db.schema
      .createTable('ranking_details')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('gen', 'integer', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text')
      .addColumn('country', 'text')
      .addColumn('category', 'text')
      .addColumn('plan', 'text')
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('signals', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_details_pk', ['workspace_id', 'gen', 'store_id']);
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      // The rows live in the primary-key tree itself: one tree less to write per row.
      rankings = rankings.modifyEnd(sql`without rowid`);
      positions = positions.modifyEnd(sql`without rowid`);
      details = details.modifyEnd(sql`without rowid`);
    }
    await rankings.execute();
    await positions.execute();
    await details.execute();
    // The current ranking of every workspace becomes its first version.
    await sql`insert into ranking_versions (workspace_id, version, gen, state, rows, created_at, created_ms)
      select w.id, w.ranking_version, w.ranking_version, 'current', count(*), max(a.updated_at), 0
      from workspaces w join accounts a on a.workspace_id = w.id group by w.id, w.ranking_version`.execute(db);
    await sql`insert into rankings (workspace_id, version, pos, store_id, score, logit, in_market, explore, model_version)
      select a.workspace_id, w.ranking_version, row_number() over (partition by a.workspace_id order by a.score desc, a.store_id),
        a.store_id, a.score, a.logit, a.in_market, a.explore, a.model_version
      from accounts a join workspaces w on w.id = a.workspace_id`.execute(db);
    await sql`insert into ranking_positions (workspace_id, version, store_id, pos)
      select workspace_id, version, store_id, pos from rankings`.execute(db);
    await sql`insert into ranking_details (workspace_id, gen, store_id, domain, country, category, plan, evidence, signals)
      select a.workspace_id, w.ranking_version, a.store_id, a.domain, a.country, a.category, a.plan, coalesce(d.evidence, '[]'), coalesce(d.signals, '[]')
      from accounts a join workspaces w on w.id = a.workspace_id
      left join account_details d on d.workspace_id = a.workspace_id and d.store_id = a.store_id`.execute(db);
    await db.schema.dropTable('account_details').execute();
    await db.schema.dropTable('ranking_history').execute();
    // accounts keeps the operator's state of each account (status, delivery marks).
    await db.schema.dropIndex('accounts_ranking').execute();
    await db.schema.dropIndex('accounts_ranking_all').execute();
    for (const column of ['domain', 'country', 'category', 'plan', 'score', 'in_market', 'logit', 'explore', 'model_version']) {
      await db.schema.alterTable('accounts').dropColumn(column).execute();
    }
  },
};
