/**
 * Issue 11's acceptance, end to end: `storelens ingest` fills a database from a runs folder,
 * `storelens keys create --scopes` grants manage:webhooks, and `storelens api` (the real
 * command, its local-development setting turned on through STORELENS_WEBHOOKS_ALLOW_LOCAL)
 * serves it over a socket. The key registers a loopback endpoint; a receiver verifies every
 * delivery with the `standardwebhooks` library. A deal is created and moved, and an in-market
 * account is disqualified: deal.created, deal.stage_changed and the store.exited of the re-rank
 * that the status change triggers each arrive exactly once, signed, and the delivery log lists
 * them as delivered. SQLite always; PostgreSQL with DATABASE_URL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { runApi } from '../../src/commands/api.js';
import type { Env } from '../../src/core/env.js';
import { resolveConfig } from '../../src/settings/config.js';
import { capturedEnv } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { type FixtureSignal, manyStores, writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

/** The last two whole months before today: data the ranking treats as current. */
function recentMonths(): [string, string] {
  const d = new Date();
  const month = (back: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
  return [month(2), month(1)];
}

const MONTHS = recentMonths();
const stores = manyStores(40);
const signals: FixtureSignal[] = stores.map((s, i) =>
  i % 4 === 0 ? { store_id: s.store_id, type: 'traffic_down', strength: 0.6, detail: 'Monthly visits down 40%' } : { store_id: s.store_id, type: 'app_installed', subject: 'klaviyo', strength: 0.5, detail: 'Installed klaviyo' },
);

const dirs = tempDirs('storelens-events-e2e-');
let runsDir: string;
beforeAll(async () => {
  runsDir = path.join(await dirs.make(), 'runs');
  await writeRuns(runsDir, { [MONTHS[0]]: { stores }, [MONTHS[1]]: { stores, signals } });
}, 60_000);
afterAll(() => dirs.removeAll());

/**
 * The verification snippet of docs/getting-started.md (its "Events (webhooks)" section's ```js block) run on one
 * received request: its import is the library's, `body` and `headers` are the request's, and
 * what it logs is returned.
 */
function guideVerify(secret: string, body: string, headers: Record<string, string>): unknown[] {
  const guide = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');
  const start = guide.indexOf('\n## Events (webhooks)\n');
  expect(start, 'docs/getting-started.md has an "Events (webhooks)" section').toBeGreaterThanOrEqual(0);
  const section = guide.slice(start, guide.indexOf('\n## ', start + 1));
  const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the events section of docs/getting-started.md has no ```js block');
  const lines = block.trimEnd().split('\n');
  expect(lines.length, 'five lines').toBeLessThanOrEqual(5);
  expect(lines[0]).toBe("import { Webhook } from 'standardwebhooks';");
  const logged: unknown[] = [];
  const run = new Function('Webhook', 'process', 'console', 'body', 'headers', lines.slice(1).join('\n'));
  run(Webhook, { env: { STORELENS_WEBHOOK_SECRET: secret } }, { log: (...a: unknown[]) => logged.push(...a) }, body, headers);
  return logged;
}

/** No flag given on the command line: every setting comes from the environment or its default. */
const noFlags = { value: () => undefined, source: () => undefined };

interface Delivery {
  id: string;
  event: { id: string; type: string };
  status: string;
  attempts: { status_code: number | null }[];
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`webhook events end to end on ${d.label}`, () => {
    let t: TestDb;
    let api: { url: string; close(): Promise<void> } | undefined;
    let receiver: Receiver | undefined;

    afterAll(async () => {
      await api?.close();
      await receiver?.close();
      await t?.cleanup();
    });

    it('a deal created and moved and an account disqualified arrive signed, once each, and are logged as delivered', async () => {
      t = await freshDb(d.name);
      const vars = t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {};
      // A clock that moves: endpoints only get events from after their registration.
      const env = (): ReturnType<typeof capturedEnv> => {
        const c = capturedEnv(new Date(), vars);
        return { ...c, env: { ...c.env, now: () => new Date() } satisfies Env };
      };
      const cli = async (args: string[]): Promise<string> => {
        const c = env();
        const code = await main(['node', 'storelens', ...args, ...(t.dbPath ? ['--db', t.dbPath] : [])], c.env);
        if (code !== 0) throw new Error(`storelens ${args.join(' ')} exited ${code}: ${c.stderr()}`);
        return c.stdout();
      };

      expect((JSON.parse(await cli(['ingest', '--runs', runsDir, '--json'])) as { months: string[] }).months).toEqual([...MONTHS]);
      await cli(['workspaces', 'create', 'acme']);
      await cli(['members', 'add', '--workspace', 'acme', '--email', 'ana@acme.example', '--role', 'owner']);
      const created = JSON.parse(
        await cli(['keys', 'create', '--workspace', 'acme', '--as', 'ana@acme.example', '--name', 'crm', '--scopes', 'manage:webhooks,read:accounts,write:deals', '--json']),
      ) as { key: string };
      const key = created.key;

      // `storelens api` as the command line builds it, with the setting from the environment.
      const config = resolveConfig('api', noFlags, { ...vars, STORELENS_WEBHOOKS_ALLOW_LOCAL: '1' });
      expect(config.webhooksAllowLocal).toBe(true);
      const server = env();
      api = await runApi({ ...config, port: 0, host: '127.0.0.1', db: t.dbPath ?? config.db }, server.env, false);
      const base = api.url;

      let n = 0;
      const call = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`${base}${p}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json', 'idempotency-key': `e2e-${n++}` } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        expect(res.status, `${method} ${p}: ${text}`).toBeLessThan(300);
        return JSON.parse(text);
      };

      receiver = await startReceiver({ tls: false, host: '127.0.0.1' });
      const endpoint = await call('POST', '/webhooks', { url: receiver.url(), description: 'e2e receiver' });
      expect(endpoint.url).toBe(receiver.url());
      expect(endpoint.secret).toMatch(/^whsec_/);
      const secret: string = endpoint.secret;

      const inMarket = (await call('GET', '/accounts?limit=2')).data as { store_id: string; in_market: boolean }[];
      expect(inMarket).toHaveLength(2);
      expect(inMarket.every((r) => r.in_market)).toBe(true);
      const [dealStore, leaving] = [inMarket[0]!.store_id, inMarket[1]!.store_id];

      const deal = await call('POST', '/deals', { store_id: dealStore, title: 'Spring relaunch', value: 12000, currency: 'EUR' });
      await call('POST', `/deals/${deal.id}/stage`, { stage: 'proposal' });
      await call('POST', `/accounts/${leaving}/status`, { status: 'disqualified', note: 'not a fit' });

      // Every request verifies with the library, under the secret the registration answered.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const payloads = () => receiver!.received.map((r) => verify(secret, r) as { id: string; type: string; workspace_id: string; data: Record<string, any> });
      const wanted = (p: ReturnType<typeof payloads>[number]) =>
        (p.type === 'deal.created' && p.data.deal_id === deal.id) ||
        (p.type === 'deal.stage_changed' && p.data.deal_id === deal.id) ||
        (p.type === 'store.exited' && p.data.store_id === leaving);
      await until(() => payloads().filter(wanted).length >= 3, undefined, 50);
      // Anything late or doubled would show up once the delivery log has nothing left to send and
      // has answered every message it sent.
      const settled = async () => {
        const entries = (await call('GET', `/webhooks/${endpoint.id}/deliveries?limit=100`)).data as Delivery[];
        return entries.every((e) => e.status !== 'pending') && entries.length === new Set(receiver!.received.map((r) => r.id)).size;
      };
      // Each look is a read of the key's 120 a minute: every 500 ms, at most 40 in until()'s 20 s.
      await until(settled, undefined, 500);

      const all = payloads();
      expect(all.length).toBeGreaterThanOrEqual(3);
      const mine = all.filter(wanted);
      expect(mine.map((p) => p.type).sort()).toEqual(['deal.created', 'deal.stage_changed', 'store.exited']);
      expect(new Set(all.map((p) => p.id)).size, 'no event arrives twice').toBe(all.length);
      expect(new Set(receiver.received.map((r) => r.id)).size, 'no message arrives twice').toBe(receiver.received.length);
      const byType = Object.fromEntries(mine.map((p) => [p.type, p]));
      expect(byType['deal.created']!.data).toMatchObject({ deal_id: deal.id, store_id: dealStore, deal: { id: deal.id, stage: 'discovery' } });
      expect(byType['deal.stage_changed']!.data).toMatchObject({ deal_id: deal.id, from: 'discovery', to: 'proposal' });
      expect(byType['store.exited']!.data).toMatchObject({ store_id: leaving, transition: 'exited' });
      expect(new Set(mine.map((p) => p.workspace_id)).size).toBe(1);
      // The guide's five lines verify a real delivery, and refuse it under another secret.
      const exited = receiver.received.find((r) => r.json.type === 'store.exited' && r.json.data.store_id === leaving)!;
      const headers = { 'webhook-id': exited.id, 'webhook-timestamp': exited.timestamp, 'webhook-signature': exited.signature };
      expect(guideVerify(secret, exited.body, headers)).toEqual(['store.exited', byType['store.exited']!.data]);
      expect(() => guideVerify(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, exited.body, headers)).toThrow();
      // A signature made with another secret does not verify.
      expect(() => verify(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, receiver!.received[0]!)).toThrow();

      // The delivery log lists each as delivered, with its webhook-id and a 2xx attempt.
      const log = (await call('GET', `/webhooks/${endpoint.id}/deliveries?limit=100`)).data as Delivery[];
      for (const p of mine) {
        const entries = log.filter((e) => e.event.id === p.id);
        expect(entries, `${p.type} is logged once`).toHaveLength(1);
        const [entry] = entries;
        expect(entry!.event.type).toBe(p.type);
        expect(entry!.status).toBe('delivered');
        expect(entry!.attempts.map((a) => a.status_code)).toEqual([200]);
        expect(receiver.received.filter((r) => r.id === entry!.id)).toHaveLength(1);
      }
    }, 60_000);
  });
}
