/**
 * The file `storelens accounts import` reads, as a CRM exports it: streamed line by line (a
 * million accounts with their reasons pass the longest string JavaScript holds), CRLF or LF,
 * and refused naming the file and line when it is no NDJSON of accounts.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_LINE_MAX, readAccountsNdjson } from '../../src/commands/admin-accounts.js';

const dir = mkdtempSync(join(tmpdir(), 'storelens-import-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const refusal = (path: string) => readAccountsNdjson(path).then(() => 'accepted', (e: Error) => e.message);

describe('an accounts import file', () => {
  it('reads a file larger than the longest string JavaScript holds (512 MiB)', async () => {
    // Read whole into one string, such a file stopped the import with "Cannot create a string
    // longer than 0x1fffffe8 characters", naming no file. Blank lines fill it: they are read and skipped.
    const path = join(dir, 'large.ndjson');
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, '{"store_id":"first","score":0.25}\r\n');
      const blanks = Buffer.alloc(1 << 20, ' ');
      blanks[blanks.length - 1] = 0x0a;
      for (let i = 0; i < 520; i++) writeSync(fd, blanks);
      writeSync(fd, '{"store_id":"last","score":0.75}');
    } finally {
      closeSync(fd);
    }
    expect(await readAccountsNdjson(path)).toMatchObject([
      { store_id: 'first', score: 0.25 },
      { store_id: 'last', score: 0.75 },
    ]);
    rmSync(path);
  });

  it('reads CRLF, LF and a trailing blank line alike, and counts lines from 1 for its messages', async () => {
    const accounts = await readAccountsNdjson(file('crlf.ndjson', '{"store_id":"a","score":0.5}\r\n{"store_id":"b","score":0.5,"category":"pets"}\r\n\r\n'));
    expect(accounts.map((a) => a.store_id)).toEqual(['a', 'b']);
    expect(await refusal(file('crlf-bad.ndjson', '{"store_id":"a","score":0.5}\r\n\r\n{"store_id":"b","score":"0.5"}\r\n'))).toMatch(/crlf-bad\.ndjson: line 3: field score: /);
  });

  it('refuses a line longer than any account line, without gathering it whole', async () => {
    const long = `[${'{"store_id":"s","score":0.5},'.repeat(Math.ceil(IMPORT_LINE_MAX / 29))}{"store_id":"t","score":0.5}]`;
    expect(await refusal(file('one-line.json', `{"store_id":"a","score":0.5}\n${long}\n`))).toMatch(/one-line\.json: line 2: longer than 16 MiB, which no account line is: NDJSON has one account object per line/);
  });

  it.each([
    ['a JSON array', '[{"store_id":"a","score":0.5}]\n', /array\.ndjson: line 1: a JSON array, where NDJSON has one account object per line/],
    // Was "line 1: not valid JSON": a JSON export pretty-printed over many lines.
    ['a pretty-printed JSON array', '[\n  {"store_id":"a","score":0.5},\n  {"store_id":"b","score":0.5}\n]\n', /array\.ndjson: line 1: a JSON array, where NDJSON has one account object per line/],
    // Were "line 1: not UTF-8 encoded (…, as Latin-1 or Windows-1252 write é)" and "line 1: not valid JSON (at character 2)".
    ['a gzip-compressed file', gzipSync('{"store_id":"a","score":0.5}\n'), /array\.ndjson: gzip-compressed \(its first bytes are gzip's\): decompress it \(gunzip\) first/],
    ['UTF-16 without a byte order mark', Buffer.from('{"store_id":"a","score":0.5}\n', 'utf16le'), /array\.ndjson: not UTF-8 encoded \(UTF-16: a NUL byte beside every letter, without a byte order mark\)/],
    // Was imported with the last score: JSON.parse keeps the last value of a key named twice, where the panel refuses the record.
    ['a line naming a key twice', '{"store_id":"a","score":0.5}\n{"store_id":"b","score":0.9,"score":0.1}\n', /array\.ndjson: line 2: names the key "score" twice: keep one \(which value is meant only the file can say\)/],
    // Was "field (line): Invalid input: expected object, received null", zod's words.
    ['a line of null', '{"store_id":"a","score":0.5}\nnull\n', /array\.ndjson: line 2: not a JSON object \(null\): NDJSON has one account object per line/],
    // Was "(null)": JSON.parse reads 1e400 as Infinity, which JSON.stringify writes null.
    ['a line of a number past a double', '{"store_id":"a","score":0.5}\n1e400\n', /array\.ndjson: line 2: not a JSON object \(1e400\): NDJSON has one account object per line/],
    ['an empty file', '', /array\.ndjson: line 1: the file is empty \(no accounts\): nothing to import/],
    ['a file of blank lines, as a failed export leaves', '\r\n  \n\n', /array\.ndjson: line 1: the file is empty \(no accounts\)/],
    ['a line of Latin-1', Buffer.from('{"store_id":"a","score":0.5}\n{"store_id":"caf\xe9","score":0.5}\n', 'latin1'), /array\.ndjson: line 2: not UTF-8 encoded/],
  ])('refuses %s, naming the file and line', async (_what, content, message) => {
    expect(await refusal(file('array.ndjson', content))).toMatch(message);
  });

  it('names a file it cannot read with the reason', async () => {
    expect(await refusal(join(dir, 'missing.ndjson'))).toBe(`${join(dir, 'missing.ndjson')}: cannot read (ENOENT)`);
    expect(await refusal(dir)).toBe(`${dir}: cannot read (EISDIR)`);
  });
});
