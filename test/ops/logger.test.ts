/** The logger's second line of defence: credentials handed to a log call by mistake are censored. */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';

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
