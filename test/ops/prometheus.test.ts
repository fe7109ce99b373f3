/**
 * A real Prometheus (Debian's `prometheus`) scrapes `storelens api`, `serve` and `worker`
 * processes on their operations listeners: its query API reports every target up and ready,
 * and shows the request counter and the webhook backlog move under a load. `promtool check
 * rules` accepts the alert rules docs/operations.md documents, extracted from it. Skipped, with
 * a message, where prometheus is not installed (.ci/run installs it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/compose/database.js';
import { Metrics } from '../../src/ops/metrics.js';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { spawnStorelens, type StorelensProcess } from '../helpers/api-processes.js';
import { samplePublicationFiles, writePublication } from '../helpers/publication.js';
import { startReceiver } from '../helpers/receiver.js';
import { freePort } from '../helpers/ports.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-prometheus-');
afterAll(() => dirs.removeAll());

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const missing = ['prometheus', 'promtool'].filter((c) => !has(c));

/** The ```yaml block of docs/operations.md's "Alert rules" section. */
function documentedRules(): string {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const start = doc.indexOf('\n### Alert rules\n');
  expect(start, 'docs/operations.md has an "Alert rules" section').toBeGreaterThan(0);
  const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(start))?.[1];
  if (!block) throw new Error('no ```yaml block under "Alert rules"');
  return block;
}

describe.skipIf(missing.length > 0)(`Prometheus scraping storelens${missing.length ? ` (skipped: ${missing.join(' and ')} not installed; apt-get install prometheus)` : ''}`, () => {
  it('promtool accepts the documented alert rules', async () => {
    const file = join(await dirs.make(), 'rules.yml');
    writeFileSync(file, documentedRules());
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('promtool accepts the exposition, the process metrics included', async () => {
    const metrics = new Metrics({});
    metrics.request('listAccounts', 200, 0.012);
    const r = spawnSync('promtool', ['check', 'metrics'], { input: await metrics.text(), encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it('scrapes api, serve and worker: all up and ready, the request counter and the webhook backlog moving under a load', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'storelens.db');
    const seed = await openDatabase({ dbPath: file });
    const ws = await workspace(seed);
    const key = await apiKey(seed, ws.id, ['read:accounts', 'manage:webhooks']);
    await seed.close();
    const out = join(dir, 'out');
    await writePublication(out, samplePublicationFiles({ runId: 'prom', months: ['2026-09'] }), { latest_month: '2026-09' });
    const receiver = await startReceiver({ tls: false, host: '127.0.0.1' });
    // An endpoint that is down: every message stays pending (retried later).
    receiver.respond = () => ({ status: 503 });
    const common = ['--ops-port', '0', '--runs', join(dir, 'runs'), '--out', out, '--webhooks-allow-local'];
    const procs: StorelensProcess[] = [
      spawnStorelens({ dbPath: file }, ['api', '--port', '0', '--host', '127.0.0.1', '--requests-only', ...common]),
      spawnStorelens({ dbPath: file }, ['worker', ...common]),
      spawnStorelens({ dbPath: file }, ['serve', '--port', '0', '--host', '127.0.0.1', '--api', '--ops-port', '0', '--out', out, '--runs', join(dir, 'runs')]),
    ];
    let prometheus: ReturnType<typeof spawn> | undefined;
    try {
      const ops = await Promise.all(procs.map(async (p) => new URL((await p.waitFor(/probes at (http:\/\/\S+)\/-\/liveness/))[1]!).host));
      const api = (await procs[0]!.waitFor(/storelens api: (http:\/\/\S+\/api\/v1)/))[1]!;
      const jobs = ['api', 'worker', 'serve'];
      const config = [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        ...jobs.map((job, i) => `  - job_name: storelens-${job}\n    metrics_path: /-/metrics\n    static_configs: [{ targets: ['${ops[i]}'] }]`),
      ].join('\n');
      writeFileSync(join(dir, 'prometheus.yml'), config);
      const port = await freePort();
      prometheus = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
      const base = `http://127.0.0.1:${port}`;
      const query = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
        const res = await fetch(`${base}/api/v1/query?${new URLSearchParams({ query: q })}`).catch(() => undefined);
        if (!res?.ok) return [];
        return ((await res.json()) as any).data.result;
      };
      const value = async (q: string) => {
        const r = await query(q);
        return r.length ? Number(r[0]!.value[1]) : undefined;
      };
      await until(async () => (await query('up == 1')).length === 3, 60_000, 250);
      expect((await query('up')).map((r) => r.metric.job).sort()).toEqual(jobs.map((j) => `storelens-${j}`).sort());
      await until(async () => (await query('min by (job) (storelens_readiness_check) == 1')).length === 3, 30_000, 250);

      // The load: reads, and test events to an endpoint that is down.
      const before = (await value('sum(storelens_http_requests_total{job="storelens-api"})')) ?? 0;
      for (let i = 0; i < 30; i++) expect((await call(api, 'GET', `/accounts?limit=${1 + (i % 5)}`, { key })).status).toBe(200);
      const hook = await call(api, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: receiver.url('/hook') } });
      expect(hook.status).toBe(201);
      for (let i = 0; i < 3; i++) expect((await call(api, 'POST', `/webhooks/${hook.body.id}/test`, { key, idem: freshIdem() })).status).toBeLessThan(300);
      await until(async () => ((await value('sum(storelens_http_requests_total{job="storelens-api"})')) ?? 0) >= before + 34, 30_000, 250);
      expect(await value('sum(storelens_http_requests_total{job="storelens-api",operation="list_accounts",status="200"})')).toBe(30);
      await until(async () => ((await value('max(storelens_webhook_messages_pending)')) ?? 0) >= 3, 30_000, 250);
      await until(async () => ((await value('max(storelens_webhook_oldest_pending_age_seconds)')) ?? 0) > 0, 30_000, 250);
      // The oldest one ages whether or not the worker got to it yet: wait for its first try.
      await until(() => receiver.received.length > 0, 30_000, 50);
      await until(async () => ((await value('sum(storelens_task_runs_total{job="storelens-worker",task="deliver"})')) ?? 0) > 0, 30_000, 250);
      expect(await value('count(storelens_release_age_seconds{job="storelens-serve"})')).toBe(1);
    } finally {
      prometheus?.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.stop()));
      await receiver.close();
    }
  }, 120_000);
});
