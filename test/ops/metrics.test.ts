/**
 * The metrics at `/-/metrics` on the operations listener: Prometheus text a real parser reads
 * (prom-client's own format, checked by name and label), requests counted by operation id and
 * status (never a raw path, a workspace or a key), rate-limit refusals, idempotent replays,
 * background task runs, the backlog gauges and the database pool.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Counter, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { openDatabase } from '../../src/compose/database.js';
import { Metrics } from '../../src/ops/metrics.js';
import { releaseMetrics } from '../../src/commands/ops.js';
import { backlogGauges } from '../../src/compose/backlog-metrics.js';
import type { LivePublication } from '../../src/serve/live-publication.js';
import { dialects, freshDb, openAgain } from '../helpers/db.js';
import { hasDue } from '../../src/webhooks/messages-store.js';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { capturedEnv } from '../helpers/cli.js';
import { mcpClient } from '../helpers/mcp.js';
import { startReceiver } from '../helpers/receiver.js';
import { tempDirs } from '../helpers/tmp.js';
import { sendRaw, WIRE_CASES } from '../helpers/wire.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-metrics-');
afterAll(() => dirs.removeAll());

/** The samples of a text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('/-/metrics', () => {
  it("writes the request counter and latency histogram exactly as prom-client's own would for the same requests", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const reference = new Registry();
    const counter = new Counter({ name: 'storelens_http_requests_total', help: 'Requests answered, by operation (operation id or route template) and status code.', labelNames: ['operation', 'status'], registers: [reference] });
    const histogram = new Histogram({ name: 'storelens_http_request_duration_seconds', help: 'Time from a request received to its response sent, by operation.', labelNames: ['operation'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [reference] });
    const seen: [string, number, number][] = [];
    // Durations on and between every bound, beyond the last, and operations that need escaping.
    const durations = [0, 0.001, 0.005, 0.0050001, 0.01, 0.02, 0.025, 0.07, 0.1, 0.3, 0.5, 0.9, 1, 2, 2.5, 4, 5, 7, 10, 11, 60];
    durations.forEach((d, i) => seen.push([['list_accounts', 'record_outcome', '/oauth/*', 'mcp:get_account', 'odd "op" \\'][i % 5]!, [200, 201, 404, 429, 503][i % 3]!, d]));
    for (const [operation, status, seconds] of seen) {
      metrics.request(operation, status, seconds);
      counter.inc({ operation, status: String(status) });
      histogram.observe({ operation }, seconds);
    }
    const ours = samples(await metrics.text());
    const theirs = samples(await reference.metrics());
    for (const [name, value] of theirs) expect([name, ours.get(name)]).toEqual([name, value]);
    expect([...ours.keys()].filter((k) => k.startsWith('storelens_http_')).sort()).toEqual([...theirs.keys()].sort());
    // The text itself, HELP and TYPE lines included, is prom-client's (the series in another order, which the format leaves free).
    const block = (text: string, name: string) => text.split('\n\n').find((b) => b.startsWith(`# HELP ${name} `))?.split('\n').filter(Boolean).sort();
    for (const name of ['storelens_http_requests_total', 'storelens_http_request_duration_seconds']) expect(block(await metrics.text(), name)).toEqual(block(await reference.metrics(), name));
  });

  it('counts requests by operation and status, refusals, replays and task runs, with bounded labels only', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'api.db');
    const seed = await openDatabase({ dbPath: file });
    const ws = await workspace(seed);
    const key = await apiKey(seed, ws.id, ['read:accounts', 'write:contacts']);
    await seed.close();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: file, opsPort: 0, runs: join(dir, 'runs'), out: join(dir, 'out') }, capturedEnv().env, false);
    try {
      const scrape = async () => {
        const res = await fetch(`${api.ops!.url}/-/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return res.text();
      };
      // 120 reads a minute are allowed: the 121st and 122nd are refused.
      for (let i = 0; i < 122; i++) await call(api.url, 'GET', `/accounts?limit=${1 + (i % 3)}`, { key });
      expect((await call(api.url, 'GET', '/accounts', {})).status).toBe(401);
      const idem = 'metrics-replay-1';
      const body = { store_id: 'no-such-store', email: 'a@b.example' };
      expect((await call(api.url, 'POST', '/contacts', { key, idem, body })).status).toBe(404);
      const again = await call(api.url, 'POST', '/contacts', { key, idem, body });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await fetch(`${api.url}/no/such/${ws.id}`);
      // MCP: each tool call is counted under its operation (a bounded set), protocol messages as `mcp`;
      // the key's read budget is spent, so the tool's own answer is a refusal counted as REST's is.
      const mcp = await mcpClient(api.url, { key });
      await mcp.client.listTools();
      expect((await mcp.client.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBe(true);
      await mcp.close();
      // A request is counted on its response's 'finish' on the server, which need not have come when
      // the client has its answer: wait for the last ones (the MCP calls) to be counted too.
      const text = await until(async () => {
        const t = await scrape();
        const counted = ['storelens_task_runs_total{task="refresh"}', 'storelens_http_requests_total{operation="mcp:list_accounts",status="200"}'];
        return counted.every((c) => t.includes(c)) ? t : undefined;
      });
      const s = samples(text);
      expect(s.get('storelens_http_requests_total{operation="list_accounts",status="200"}')).toBe(120);
      expect(s.get('storelens_http_requests_total{operation="list_accounts",status="429"}')).toBe(2);
      expect(s.get('storelens_http_requests_total{operation="list_accounts",status="401"}')).toBe(1);
      expect(s.get('storelens_rate_limit_refusals_total{kind="read"}')).toBe(3);
      expect(s.get('storelens_http_requests_total{operation="mcp:list_accounts",status="200"}')).toBe(1);
      expect(s.get('storelens_http_requests_total{operation="mcp",status="200"}')).toBeGreaterThanOrEqual(2);
      expect([...s.keys()].filter((k) => k.includes('/mcp'))).toEqual([]);
      expect(s.get('storelens_idempotent_replays_total{operation="add_contact"}')).toBe(1);
      expect(s.get('storelens_http_requests_total{operation="unmatched",status="401"}')).toBe(1);
      expect(s.get('storelens_http_request_duration_seconds_count{operation="list_accounts"}')).toBe(123);
      expect(s.get('storelens_task_runs_total{task="refresh"}')).toBeGreaterThan(0);
      expect(s.get('storelens_webhook_messages_pending')).toBe(0);
      expect(s.get('storelens_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(s.has('storelens_process_cpu_user_seconds_total')).toBe(true);
      expect(s.has('storelens_nodejs_eventloop_lag_p99_seconds')).toBe(true);
      // docs/operations.md lists every metric but Node's process metrics.
      const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
      const names = new Set([...text.matchAll(/^# TYPE (storelens_\w+)/gm)].map((m) => m[1]!).filter((n) => !/^storelens_(process|nodejs)_/.test(n)));
      expect(names.size).toBeGreaterThan(10);
      for (const n of names) expect(doc, `docs/operations.md lists ${n}`).toContain(`| \`${n}\` |`);
      // No label carries a workspace, a key or a raw path.
      for (const secretish of [ws.id, key, key.slice(0, 12), '/no/such', 'limit=']) expect(text).not.toContain(secretish);
      // Every sample line is `name{label="value",…} number` with a Prometheus metric name.
      for (const [name, value] of s) {
        expect(name).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})?$/);
        expect(Number.isNaN(value)).toBe(false);
      }
    } finally {
      await api.close();
    }
  });

  it("counts in the webhook backlog only the messages of endpoints still sent to: not a deleted or disabled endpoint's", async () => {
    const dir = await dirs.make();
    const file = join(dir, 'api.db');
    const seed = await openDatabase({ dbPath: file });
    const ws = await workspace(seed);
    const key = await apiKey(seed, ws.id, ['manage:webhooks']);
    // A receiver that is down: every message stays pending, waiting for its retry.
    const rx = await startReceiver({ tls: false, host: '127.0.0.1' });
    rx.respond = () => ({ status: 503 });
    const api = await runApi({ port: 0, host: '127.0.0.1', db: file, opsPort: 0, webhooksAllowLocal: true, runs: join(dir, 'runs'), out: join(dir, 'out') }, capturedEnv().env, false);
    try {
      const ids: string[] = [];
      for (const path of ['/deleted', '/disabled', '/live']) {
        const ep = await call(api.url, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: rx.url(path) } });
        ids.push(ep.body.id);
        expect((await call(api.url, 'POST', `/webhooks/${ep.body.id}/test`, { key, idem: freshIdem() })).status).toBe(200);
      }
      const attempted = async () => (await seed.kysely.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute()).filter((d) => d.status === 'pending' && Number(d.attempts) === 1).length;
      await until(async () => (await attempted()) === 3);
      expect((await call(api.url, 'DELETE', `/webhooks/${ids[0]}`, { key, idem: freshIdem() })).status).toBe(200);
      expect((await call(api.url, 'PATCH', `/webhooks/${ids[1]}`, { key, idem: freshIdem(), body: { enabled: false } })).status).toBe(200);
      const s = samples(await (await fetch(`${api.ops!.url}/-/metrics`)).text());
      // Before: 3, for ever (a deleted endpoint's message is never sent nor pruned), and the
      // documented StorelensWebhookBacklogOld alert fired for good after a customer deleted a failing endpoint.
      expect(s.get('storelens_webhook_messages_pending')).toBe(1);
      // And the worker loop does not find work it cannot claim: only the live endpoint's message, once due, is.
      await seed.kysely.updateTable('webhook_deliveries').set({ next_attempt_ms: 0 }).where('endpoint_id', 'in', ids.slice(0, 2)).execute();
      expect(await hasDue(seed.kysely, 1)).toBe(false);
    } finally {
      await api.close();
      await rx.close();
      await seed.close();
    }
  });

  it("counts as a rate-limit refusal only an operation's 429, not the sign-in throttle's", async () => {
    const dir = await dirs.make();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), opsPort: 0, requestsOnly: true }, capturedEnv().env, false);
    try {
      const origin = new URL(api.url).origin;
      const page = await fetch(`${origin}/signin`);
      const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      const statuses: number[] = [];
      // Four failures of an account pass; the fifth locks it: the sixth attempt is refused 429.
      for (let i = 0; i < 6; i++) {
        const body = new URLSearchParams({ csrf, next: '/integrations', email: 'nobody@example.com', password: `wrong ${i}` }).toString();
        const res = await fetch(`${origin}/signin`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body });
        statuses.push(res.status);
        await res.text();
      }
      expect(statuses.at(-1)).toBe(429);
      const text = await until(async () => {
        const t = await (await fetch(`${api.ops!.url}/-/metrics`)).text();
        return t.includes('storelens_http_requests_total{operation="/signin",status="429"}') ? t : undefined;
      });
      // Before: storelens_rate_limit_refusals_total{kind="other"} 1, a kind the per-key limit does not have.
      expect(text).not.toMatch(/^storelens_rate_limit_refusals_total\{/m);
    } finally {
      await api.close();
    }
  });

  it('gives the release age no sample while nothing is published, not an age of 0', async () => {
    const metrics = new Metrics({ processMetrics: false });
    releaseMetrics(metrics, { current: null } as unknown as LivePublication);
    const s = samples(await metrics.text());
    // Before: storelens_release_age_seconds 0 (prom-client answers 0 for an unlabelled gauge left unset), a release just published.
    expect([...s.keys()].filter((k) => k.startsWith('storelens_release_'))).toEqual([]);
  });

  for (const d of dialects)
    it.skipIf(d.skip)(`reports no backlog while the database does not answer, not an empty one (${d.label})`, async () => {
      const t = await freshDb(d.name);
      const db = await openAgain(t);
      const scrape = async () => {
        const metrics = new Metrics({ processMetrics: false });
        metrics.gauges(backlogGauges(db, () => new Date()));
        return samples(await metrics.text());
      };
      const backlog = ['storelens_webhook_messages_pending', 'storelens_webhook_oldest_pending_age_seconds', 'storelens_outbox_undispatched_events', 'storelens_outbox_lag_seconds', 'storelens_outreach_steps_sending'];
      try {
        const up = await scrape();
        expect(backlog.map((name) => up.get(name))).toEqual([0, 0, 0, 0, 0]);
        await db.close();
        const down = await scrape();
        // Before: every backlog gauge 0 (an empty backlog) while its read failed, so a backlog alert went quiet during an outage.
        expect(backlog.filter((name) => down.has(name))).toEqual([]);
      } finally {
        await t.cleanup();
      }
    });

  for (const d of dialects)
    it.skipIf(d.skip)(`reports the database pool as the process uses it, not as the scrape's own reads do (${d.label})`, async () => {
      const t = await freshDb(d.name);
      const db = d.name === 'PostgreSQL' ? await openDatabase({ databaseUrl: t.databaseUrl, poolSize: 1 }) : await openAgain(t);
      const scrape = async () => {
        const metrics = new Metrics({ processMetrics: false });
        metrics.gauges(backlogGauges(db, () => new Date()));
        return samples(await metrics.text());
      };
      const pool = (s: Map<string, number>) => [s.get('storelens_db_pool_connections{state="busy"}'), s.get('storelens_db_pool_waiting')];
      try {
        // Before: `storelens_db_pool_waiting 3` on an idle PostgreSQL process, the backlog's three reads of the scrape itself.
        expect(pool(await scrape())).toEqual([0, 0]);
        if (d.name === 'PostgreSQL') {
          // Its one connection held by a transaction, and one statement waiting for it.
          let release: (() => void) | undefined;
          const held = db.kysely.transaction().execute(async (trx) => {
            await sql`select 1`.execute(trx);
            await new Promise<void>((resolve) => (release = resolve));
          });
          await until(() => release !== undefined);
          const waiting = sql`select 1`.execute(db.kysely);
          await until(() => db.pool().waiting === 1);
          const busy = scrape();
          release!();
          expect(pool(await busy)).toEqual([1, 1]);
          await Promise.all([held, waiting]);
        }
      } finally {
        await db.close();
        await t.cleanup();
      }
    });

  it('counts and logs the requests the HTTP edge refuses before any route, as `unmatched`, each once', async () => {
    const dir = await dirs.make();
    const env = capturedEnv();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), opsPort: 0, requestsOnly: true, logFormat: 'json' }, env.env, false);
    try {
      const origin = new URL(api.url).origin;
      // Chunk extensions over the limit fail in the body of a request already routed: that request's line tells it (aborted).
      const refused = WIRE_CASES.filter((c) => c.kind !== 'payload-too-large');
      const expected = new Map<string, number>();
      for (const c of refused) {
        expect((await sendRaw(origin, c.request)).status, c.name).toBe(c.status);
        const sample = `storelens_http_requests_total{operation="unmatched",status="${c.status}"}`;
        expected.set(sample, (expected.get(sample) ?? 0) + 1);
      }
      // Before: none of them was counted, nor written to the log.
      const s = await until(async () => {
        const got = samples(await (await fetch(`${api.ops!.url}/-/metrics`)).text());
        return got.get('storelens_http_request_duration_seconds_count{operation="unmatched"}') === refused.length ? got : undefined;
      });
      expect(new Map([...s].filter(([k]) => k.startsWith('storelens_http_requests_total')))).toEqual(expected);
      const lines = env
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l) as { operation: string; status: number; reqId: string; level: string });
      expect(lines.map((l) => [l.operation, l.status])).toEqual(refused.map((c) => ['unmatched', c.status]));
      // Every one of them the client's doing (a 501 too: CONNECT, a coding this server does not
      // speak): no server failure, so nothing at error for an alert to fire on.
      expect(refused.some((c) => c.status === 501)).toBe(true);
      expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
      expect(lines.every((l) => l.reqId.length > 0)).toBe(true);
    } finally {
      await api.close();
    }
  });

  it('is not served when no operations listener is asked for, and never on the serving port', async () => {
    const dir = await dirs.make();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), requestsOnly: true }, capturedEnv().env, false);
    try {
      expect(api.ops).toBeUndefined();
      expect((await fetch(`${new URL(api.url).origin}/-/metrics`)).status).toBe(404);
    } finally {
      await api.close();
    }
  });
});
