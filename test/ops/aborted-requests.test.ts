/**
 * A request whose client goes away before its response is complete — a download cancelled
 * mid-body, a load balancer giving up while the API waits, an upload cut short — is still told:
 * counted, and logged with `aborted: true`; its status the one answered, or 499 (nginx's "client
 * closed request") when nothing was answered yet. Before, such a request left no line and no count.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { openDatabase } from '../../src/compose/database.js';
import { createLogger } from '../../src/ops/logger.js';
import { Metrics } from '../../src/ops/metrics.js';
import { observePublic } from '../../src/serve/observe.js';
import { apiKey, workspace } from '../helpers/api.js';
import { capturedEnv } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-aborted-');
afterAll(() => dirs.removeAll());

const requestLines = (text: string) =>
  text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>).filter((e) => e.msg === 'request');

/** Sends raw bytes, waits until `ready(received so far)`, then drops the connection. */
async function sendAndDrop(port: number, raw: string, ready: (received: string) => boolean): Promise<void> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (b) => (received += b.toString('latin1')));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(raw);
  await until(() => ready(received));
  socket.destroy();
}

it('public: a response cut short keeps its status, one never begun is 499; both counted and logged as aborted', async () => {
  let text = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((text += String(chunk)), done()) });
  const metrics = new Metrics({ processMetrics: false });
  const handle = observePublic(
    (req: IncomingMessage, res: ServerResponse) => {
      res.setHeader('x-request-id', req.url === '/data/agentic-commerce' ? 'cut-short' : 'never-begun');
      // The first page sends its status line and part of its body, and never ends; the second sends nothing.
      if (req.url === '/data/agentic-commerce') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
        res.write('<!doctype html>');
      }
      return true;
    },
    { metrics, log: createLogger({ stream, format: 'json' }) },
  );
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    await sendAndDrop(port, 'GET /data/agentic-commerce HTTP/1.1\r\nHost: x\r\n\r\n', (r) => r.includes('<!doctype html>'));
    await sendAndDrop(port, 'GET /data/platform-stores HTTP/1.1\r\nHost: x\r\n\r\n', () => true);
    const lines = await until(() => (requestLines(text).length === 2 ? requestLines(text) : undefined));
    const byId = Object.fromEntries(lines.map((l) => [l.reqId, l]));
    expect(byId['cut-short']).toMatchObject({ operation: '/data/{slug}', method: 'GET', status: 200, aborted: true });
    expect(byId['never-begun']).toMatchObject({ operation: '/data/{slug}', method: 'GET', status: 499, aborted: true });
    const exposition = await metrics.text();
    expect(exposition).toMatch(/^storelens_http_requests_total\{operation="\/data\/\{slug\}",status="200"\} 1$/m);
    expect(exposition).toMatch(/^storelens_http_requests_total\{operation="\/data\/\{slug\}",status="499"\} 1$/m);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('api: an upload cut short is logged once, as 499 aborted, with its operation', async () => {
  const dir = await dirs.make();
  const file = join(dir, 'api.db');
  const seed = await openDatabase({ dbPath: file });
  const key = await apiKey(seed, (await workspace(seed)).id, ['write:outcomes']);
  await seed.close();
  const env = capturedEnv(new Date(), {});
  const api = await runApi({ port: 0, host: '127.0.0.1', db: file, logLevel: 'info', logFormat: 'json', runs: join(dir, 'runs'), out: join(dir, 'out') }, env.env, false);
  try {
    const port = Number(new URL(api.url).port);
    const head = `POST /api/v1/outcomes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Request-Id: cut-upload\r\n\r\n{"store_id":`;
    await sendAndDrop(port, head, () => true);
    // A complete request after it: its line comes after the aborted one's, so once it is there the other had its chance.
    expect((await fetch(`${api.url}/accounts`, { headers: { 'x-request-id': 'after' } })).status).toBe(401);
    const lines = await until(() => {
      const l = requestLines(env.stderr());
      return l.some((e) => e.reqId === 'after') && l.some((e) => e.reqId === 'cut-upload') ? l : undefined;
    });
    const cut = lines.filter((l) => l.reqId === 'cut-upload');
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ method: 'POST', status: 499, aborted: true });
    expect(cut[0]!.operation).not.toBe('unmatched');
    expect(lines.find((l) => l.reqId === 'after')).not.toHaveProperty('aborted');
  } finally {
    await api.close();
  }
});
