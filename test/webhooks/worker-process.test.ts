/**
 * `storelens worker` as an operator runs it: a real child process over the database. It stays
 * up, delivers what another process wrote, and on SIGTERM finishes the send in flight, records
 * it and exits 0 — nothing lost, nothing sent twice; a receiver whose answer never ends holds
 * neither the connection nor the exit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendUncheckedEvents } from '../../src/webhooks/outbox.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { loadSecretBox, newSigningSecret } from '../../src/outbound/secrets.js';
import { workspace } from '../helpers/api.js';
import { spawnStorelens } from '../helpers/api-processes.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`storelens worker as a process (${d.label})`, () => {
    let t: TestDb;
    let rx: Receiver;
    let dir: string;
    beforeAll(async () => {
      t = await freshDb(d.name);
      rx = await startReceiver({ tls: false, host: '127.0.0.1' });
      dir = mkdtempSync(join(tmpdir(), 'storelens-worker-'));
    });
    afterAll(async () => {
      await rx?.close();
      await t?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it('stays up, delivers, and on SIGTERM answers not ready at once, completes the send in flight and exits 0', async () => {
      const ws = await workspace(t.db);
      const box = await loadSecretBox(t.db.kysely);
      const secret = newSigningSecret();
      const ep = await insertWebhookEndpoint(t.db.kysely, ws.id, { url: rx.url(), sealedSecret: box.seal(secret) }, new Date(Date.now() - 1000));
      const emit = (to: string) =>
        t.db.write((trx) => appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'watch.health_changed', data: { watch_id: 'w1', from: 'healthy', to } }], new Date()));

      const worker = spawnStorelens(t, ['worker', '--webhooks-allow-local', '--ops-port', '0', '--runs', join(dir, 'runs'), '--out', join(dir, 'out')]);
      try {
        const ops = (await worker.waitFor(/probes at (http:\/\/[\d.:]+)\/-\/liveness/))[1]!;
        await worker.waitFor(/storelens worker: delivering webhook events from .*; background tasks: .*deliver/);
        const readiness = async () => {
          const r = await fetch(`${ops}/-/readiness`);
          return { status: r.status, body: (await r.json()) as { failed?: string[] } };
        };
        expect((await readiness()).status).toBe(200);
        // Its loop's turns come and go; the process stays up (before: it exited about a second after starting).
        await emit('degraded');
        await until(() => rx.received.length === 1);
        expect(verify(secret, rx.received[0])).toMatchObject({ type: 'watch.health_changed', data: { to: 'degraded' } });
        await until(async () => (await t.db.kysely.selectFrom('webhook_deliveries').select('status').where('endpoint_id', '=', ep.id).execute()).every((r) => r.status === 'delivered'));
        expect(worker.child.exitCode).toBeNull();

        // The next send is answered only after SIGTERM has arrived and readiness said draining.
        let answer!: () => void;
        rx.respond = () => ({ status: 200, after: new Promise<void>((resolve) => (answer = resolve)) });
        await emit('failing');
        await until(() => rx.received.length === 2);
        worker.child.kill('SIGTERM');
        const draining = await until(async () => {
          const r = await readiness();
          return r.status === 503 ? r : undefined;
        });
        expect(draining.body.failed).toEqual(['draining']);
        expect(worker.child.exitCode).toBeNull();
        answer();
        const { code } = await worker.exited.then((e) => ({ code: e.code }));
        const stderr = worker.stderr();
        expect(code).toBe(0);
        expect(stderr).toMatch(/SIGTERM: finishing the task under way and the webhook sends in flight[^]*storelens worker: stopped \(SIGTERM\)/);
        expect(stderr).not.toMatch(/unhandled|destroyed|failed \(will retry\)|Error/i);
      } finally {
        await worker.stop('SIGKILL');
      }
      // The send in flight was recorded as delivered: nothing left to send again, nothing sent twice.
      const rows = await t.db.kysely.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts']).where('endpoint_id', '=', ep.id).execute();
      expect(rows.map((r) => [r.status, Number(r.attempts)])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
      expect(new Set(rx.received.map((r) => r.id)).size).toBe(2);
      expect(rx.received).toHaveLength(2);
    });

    it('reads no answer body: a 200 whose body never ends is delivered, its connection closed, and SIGTERM exits 0', async () => {
      // A receiver that answers 200 at once and then streams its body for ever.
      let connectionClosed!: () => void;
      const closed = new Promise<void>((r) => (connectionClosed = r));
      const endless = http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/plain' });
        const pour = () => {
          while (res.write('x'.repeat(16_384)));
        };
        res.on('drain', pour);
        pour();
        res.on('close', () => connectionClosed());
      });
      await new Promise<void>((r) => endless.listen(0, '127.0.0.1', () => r()));
      const ws = await workspace(t.db);
      const box = await loadSecretBox(t.db.kysely);
      const url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook`;
      const ep = await insertWebhookEndpoint(t.db.kysely, ws.id, { url, sealedSecret: box.seal(newSigningSecret()) }, new Date(Date.now() - 1000));
      const worker = spawnStorelens(t, ['worker', '--webhooks-allow-local', '--runs', join(dir, 'runs'), '--out', join(dir, 'out')]);
      try {
        await worker.waitFor(/storelens worker: delivering webhook events/);
        await t.db.write((trx) => appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'watch.health_changed', data: { watch_id: 'w1', from: 'healthy', to: 'degraded' } }], new Date()));
        await until(async () => (await t.db.kysely.selectFrom('webhook_deliveries').select('status').where('endpoint_id', '=', ep.id).executeTakeFirst())?.status === 'delivered');
        // Before: the worker read the body for as long as it came, and after SIGTERM it said
        // "stopped" but never exited (the open socket kept the process alive).
        await closed;
        const { code } = await worker.stop('SIGTERM');
        expect(code).toBe(0);
      } finally {
        await worker.stop('SIGKILL');
        endless.closeAllConnections();
        await new Promise<void>((r) => endless.close(() => r()));
      }
    });
  });
}
