/** The logger's second line of defence: credentials handed to a log call by mistake are censored. */
import { Writable } from 'node:stream';
import { expect, it, vi } from 'vitest';
import { createLogger, flushLog, type RequestLine, requestLineWriter } from '../../src/ops/logger.js';

it('censors credentials at the top level and under the objects a log call is handed', () => {
  let out = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  const log = createLogger({ stream, format: 'json', level: 'info' });
  log.info({ token: 'tok-1', req: { headers: { authorization: 'Bearer slk_secret', cookie: 'sid=abc' } }, body: { password: 'hunter2', note: 'kept' }, err: { config: { headers: { authorization: 'Basic b64' } } }, headers: { 'set-cookie': 'sid=def' } }, 'mistake');
  const line = JSON.parse(out.trim());
  for (const secret of ['tok-1', 'slk_secret', 'sid=abc', 'hunter2', 'Basic b64', 'sid=def']) expect(out).not.toContain(secret);
  expect(line.body.note).toBe('kept');
  expect(line.req.headers.authorization).toBe('[redacted]');
});

it("keeps an error's code (the driver's errno or SQLSTATE), while an OAuth code under a request is censored", () => {
  let out = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  const log = createLogger({ stream, format: 'json', level: 'info' });
  const err = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
  log.error({ err, query: { code: 'oauth-code-1' }, body: { code: 'oauth-code-2' } }, 'api error');
  const line = JSON.parse(out.trim());
  // Before: "code":"[redacted]", and an operator could not tell a refused connection from a deadlock (40P01).
  expect(line.err.code).toBe('ECONNREFUSED');
  for (const secret of ['oauth-code-1', 'oauth-code-2']) expect(out).not.toContain(secret);
});

it("makes a library's console.warn and console.error lines of the process's JSON log", () => {
  let out = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  const { warn, error } = console;
  try {
    createLogger({ stream, format: 'json', level: 'info', ownsConsole: true });
    console.warn('oidc-provider WARNING: %s', 'Unsupported runtime.');
    console.error(new Error('boom'));
  } finally {
    Object.assign(console, { warn, error });
  }
  const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { level: string; msg: string });
  expect(lines.map((l) => [l.level, l.msg.split('\n')[0]])).toEqual([
    ['warn', 'oidc-provider WARNING: Unsupported runtime.'],
    ['error', 'Error: boom'],
  ]);
});

it('gathers the lines logged to a file descriptor and writes every one out on flushLog', async () => {
  const { mkdtempSync, openSync, readFileSync, closeSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'storelens-logger-'));
  const fd = openSync(join(dir, 'log'), 'a');
  try {
    const log = createLogger({ stream: new Writable({ write: (_c, _e, done) => done() }), fd, format: 'json', level: 'info' });
    for (let i = 0; i < 1000; i++) log.info({ i }, 'line');
    await flushLog(log);
    const lines = readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { i: number });
    expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});

it("stamps each line with the moment it was logged, to the millisecond, as an ISO time", () => {
  let out = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  const log = createLogger({ stream, format: 'json', level: 'info' });
  const moments = ['2026-11-29T02:45:04.007Z', '2026-11-29T02:45:04.070Z', '2026-11-29T02:45:04.700Z', '2026-11-29T02:45:05.000Z', '2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.001Z'];
  vi.useFakeTimers();
  try {
    for (const m of moments) {
      vi.setSystemTime(new Date(m));
      log.info('tick');
    }
  } finally {
    vi.useRealTimers();
  }
  expect(out.trim().split('\n').map((l) => (JSON.parse(l) as { time: string }).time)).toEqual(moments);
});

it("writes a request's line as pino would, escaped, at its level and only when that level is on", async () => {
  const { mkdtempSync, openSync, readFileSync, closeSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'storelens-logger-'));
  const lines: RequestLine[] = [
    { reqId: 'req-1', operation: 'list_accounts', method: 'GET', status: 200, duration_ms: 1.2, workspace: 'ws_1', key_id: 'key_1' },
    { reqId: 'a "quoted" \\ id\u2028', operation: 'mcp:record_outcome', method: 'POST', status: 200, tool_status: 409, duration_ms: 0.4, workspace: 'ws_1', key_id: 'key_2' },
    { reqId: 'req-3', operation: '/signin', method: 'POST', status: 503, duration_ms: 12 },
  ];
  let calls = 0;
  const written = (level: 'info' | 'error', through: 'gathered' | 'pino') => {
    const file = join(dir, `${level}-${through}-${++calls}`);
    const fd = openSync(file, 'a');
    let out = '';
    const stream = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
    const log = createLogger({ stream, fd: through === 'gathered' ? fd : undefined, format: 'json', level }).child({ process: 'api' });
    const write = requestLineWriter(log);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-29T06:00:00.042Z'));
    try {
      for (const line of lines) write(line);
    } finally {
      vi.useRealTimers();
    }
    log.flush();
    closeSync(fd);
    return through === 'gathered' ? readFileSync(file, 'utf8') : out;
  };
  try {
    for (const level of ['info', 'error'] as const) expect(written(level, 'gathered')).toBe(written(level, 'pino'));
    const info = written('info', 'gathered').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(info.map((l) => [l.level, l.reqId, l.status, l.tool_status])).toEqual([['info', 'req-1', 200, undefined], ['info', lines[1]!.reqId, 200, 409], ['error', 'req-3', 503, undefined]]);
    expect(info[0]).toEqual({ level: 'info', time: '2026-11-29T06:00:00.042Z', pid: process.pid, process: 'api', reqId: 'req-1', operation: 'list_accounts', method: 'GET', status: 200, duration_ms: 1.2, workspace: 'ws_1', key_id: 'key_1', msg: 'request' });
    // At level error only the failed request is written.
    expect(written('error', 'gathered').trim().split('\n').map((l) => (JSON.parse(l) as { reqId: string }).reqId)).toEqual(['req-3']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
