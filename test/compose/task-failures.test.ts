/**
 * The background loop's failures as its log tells them (src/compose/task-failures.ts): a database
 * outage once when it starts and once when it ends, with the count of turns it failed; any other
 * failure at every turn. The outage is a real one: a PostgreSQL connection through a proxy of the
 * test's own that stops carrying it; the turns are triggered by the test, not by the clock.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startBackground } from '../../src/compose/background.js';
import { type Db, openDatabase } from '../../src/compose/database.js';
import { taskFailureLog } from '../../src/compose/task-failures.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { fakeClock } from '../helpers/api.js';
import { freshDb, pgUrl, refusableDatabase } from '../helpers/db.js';

/** A proxy to PostgreSQL that the test takes down (its connections cut, new ones closed at once) and up again. */
async function cuttableProxy(): Promise<{ url: (databaseUrl: string) => string; down: () => void; up: () => void; close: () => Promise<void> }> {
  const server = new URL(pgUrl!);
  const pairs = new Set<Socket>();
  let isDown = false;
  const proxy: Server = createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = connect(Number(server.port || 5432), server.hostname);
    pairs.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const s of [client, upstream]) {
      s.on('error', () => undefined);
      s.on('close', () => {
        pairs.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const cutAll = () => pairs.forEach((s) => s.destroy());
  return {
    url: (databaseUrl) => Object.assign(new URL(databaseUrl), { host: `127.0.0.1:${(proxy.address() as AddressInfo).port}` }).toString(),
    down: () => ((isDown = true), cutAll()),
    up: () => void (isDown = false),
    close: () => (cutAll(), new Promise<void>((resolve) => proxy.close(() => resolve()))),
  };
}

/** The background loop with delivery alone, its periodic turn an hour away: `turn()` runs one; `lines` are its warnings. */
async function deliveryLoop(db: Db) {
  const clock = fakeClock(new Date().toISOString());
  const lines: string[] = [];
  const bg = startBackground(db, { now: clock.now, log: () => undefined, warn: (l) => lines.push(l), only: ['deliver'], deliverEveryMs: 3_600_000, outbound: await webhookRuntime(db.kysely) });
  const turn = async () => {
    bg.worker.trigger('deliver');
    await bg.worker.idle();
  };
  return { bg, clock, lines, turn };
}

describe.skipIf(!pgUrl)(`the delivery loop while PostgreSQL does not answer${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  it('says once that the database is unavailable, and once that it answers again with the number of failed turns', async () => {
    const t = await freshDb('PostgreSQL');
    const proxy = await cuttableProxy();
    const db = await openDatabase({ databaseUrl: proxy.url(t.databaseUrl!) });
    const { bg, clock, lines, turn } = await deliveryLoop(db);
    try {
      await bg.worker.idle();
      expect(lines).toEqual([]);
      proxy.down();
      for (let i = 0; i < 5; i++) {
        await turn();
        clock.advance(1_500);
      }
      // Before: one "deliver failed (will retry)" line per turn, every 250 ms in `storelens worker`, and none when it was over.
      expect(lines).toEqual([expect.stringMatching(/^the database is unavailable \(deliver: .+\): the background tasks retry on their turns, and this log says once when it answers again$/)]);
      proxy.up();
      await turn();
      expect(lines.slice(1)).toEqual([`the database answers again: 5 turns of background tasks failed in 7.5 s (since ${new Date(clock.now().getTime() - 7_500).toISOString()})`]);
      await turn();
      expect(lines).toHaveLength(2);
    } finally {
      await bg.stop();
      await db.close();
      await proxy.close();
      await t.cleanup();
    }
  });
});

describe.skipIf(!pgUrl)(`the delivery loop while PostgreSQL refuses connections to its database${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  // What an operator does to take a database out of service without stopping the server: its
  // connections ended, new ones refused (FATAL 55000, "not currently accepting connections").
  it('says once that the database is unavailable, and once that it answers again', async () => {
    const served = await refusableDatabase('sl_refuse');
    const db = await openDatabase({ databaseUrl: served.databaseUrl });
    const { bg, lines, turn } = await deliveryLoop(db);
    try {
      await bg.worker.idle();
      await served.refuse();
      for (let i = 0; i < 4; i++) await turn();
      // Before: "deliver failed (will retry): database "…" is not currently accepting connections" at every turn.
      expect(lines).toEqual([expect.stringMatching(/^the database is unavailable \(deliver: .+\): the background tasks retry on their turns/)]);
      await served.accept();
      await turn();
      expect(lines.slice(1)).toEqual([expect.stringMatching(/^the database answers again: \d+ turns of background tasks failed/)]);
    } finally {
      await bg.stop();
      await db.close();
      await served.drop();
    }
  });
});

describe('the background failures log', () => {
  it('tells a failure that is not the database at every turn, and an outage that another task outlasts once it reaches the database again', () => {
    const clock = fakeClock('2026-11-23T10:00:00.000Z');
    const lines: string[] = [];
    const log = taskFailureLog((l) => lines.push(l), clock.now);
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    log.failed('reports', new Error('boom'));
    log.failed('reports', new Error('boom'));
    log.failed('deliver', refused);
    log.failed('deliver', refused);
    log.failed('reports', refused);
    clock.advance(2_000);
    // A task that did not fail with the outage proves nothing about the database.
    log.ran('ingest');
    log.ran('reports');
    log.ran('deliver');
    expect(lines).toEqual([
      'reports failed (will retry): boom',
      'reports failed (will retry): boom',
      'the database is unavailable (deliver: connect ECONNREFUSED 10.0.0.5:5432): the background tasks retry on their turns, and this log says once when it answers again',
      'the database answers again: 3 turns of background tasks failed in 2.0 s (since 2026-11-23T10:00:00.000Z)',
    ]);
  });
});
