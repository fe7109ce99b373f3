/** The logger's second line of defence: credentials handed to a log call by mistake are censored. */
import { Writable } from 'node:stream';
import { expect, it, vi } from 'vitest';
import { createLogger, flushLog } from '../../src/ops/logger.js';

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
