// The contact source carried a record at a time (writeCheckedContacts: checked as read, sorted
// into a file) gives the bytes, id and first problem of the in-memory path (contactsData).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactsData, readContactsFile, writeCheckedContacts } from '../../src/contacts/source.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-carry-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Both paths on the same file: the in-memory one's bytes or message, the streamed one's. */
async function both(name: string, text: string | Buffer): Promise<{ memory: string; streamed: string }> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  const out = path.join(dir, 'out.ndjson');
  const memory = await readContactsFile(file).then((rows) => contactsData(rows).bytes.toString(), (e: Error) => `error: ${e.message}`);
  const streamed = await writeCheckedContacts(file, out).then(
    async (id) => {
      const bytes = await readFile(out);
      expect(id).toBe(contactsData(bytes.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))).id);
      return bytes.toString();
    },
    (e: Error) => `error: ${e.message}`,
  );
  return { memory, streamed };
}

describe('the contact source carried a record at a time', () => {
  it("sorts as JavaScript's string order does (surrogate pairs after U+E000–U+FFFF), prefixes first", async () => {
    const rows = ['b,Bo,b@x.example,,', 'a\uFFFD,Z,z@x.example,Founder,site', 'a\u{1F600},Y,y@x.example,,', 'a,"Na, me",A@X.example,r,s', 'a,  ,b@x.example,,', 'ab,x,c@x.example,,', 'a\uE000,q,q@x.example,,'];
    const { memory, streamed } = await both('contacts.csv', `store_id,name,email,role,source\n${rows.join('\n')}\n`);
    expect(memory.startsWith('error')).toBe(false);
    expect(streamed).toBe(memory);
  });

  it('keeps every character of a cell, control characters and quotes included, and carries a file of no contacts', async () => {
    const rows = ['c,"we\u0001ird\u0002, \\""x""",c@x.example,"a\nb",\u0001', 'd,\u2028,d@x.example,,'];
    const filled = await both('contacts.csv', `store_id,name,email,role,source\n${rows.join('\n')}\n`);
    expect(filled.memory).toContain('we\\u0001ird\\u0002, \\\\\\"x\\"');
    expect(filled.streamed).toBe(filled.memory);
    const empty = await both('contacts.csv', 'store_id,name,email,role,source\n');
    expect(empty).toEqual({ memory: '', streamed: '' });
  });

  it('reads a file whose lines end alike or not (a header saved LF, records appended CRLF) as the same contacts', async () => {
    // The last column's cells kept a CR of their own: "Buyer\r" (JavaScript's trim once removed it;
    // the text rule keeps a line break at an end, as the panel does).
    const lf = await both('contacts.csv', 'store_id,email,name,role\ns1,a@x.example,Ann,Buyer\ns2,b@x.example,Bo,CEO\n');
    const mixed = await both('contacts.csv', 'store_id,email,name,role\ns1,a@x.example,Ann,Buyer\r\ns2,b@x.example,Bo,CEO\r\n');
    const crlf = await both('contacts.csv', 'store_id,email,name,role\r\ns1,a@x.example,Ann,Buyer\r\ns2,b@x.example,Bo,CEO\r\n');
    expect(lf.memory).toContain('"role":"Buyer"');
    expect([mixed, crlf]).toEqual([lf, lf]);
  });

  it('says the first problem in the file, a store and email listed twice included, and a file that cannot be read first', async () => {
    for (const text of [
      'store_id,name,email\na,x,a@x.example\na,z,a@x.example\nb,y,bad\n',
      'store_id,name,email\na,x,a@x.example\nb,y,bad\na,z,a@x.example\n',
      'store_id,name,email\na,x,a@x.example\nb,y,b@x.example\nc,q,c@x.example\nb,y,b@x.example\na,z,a@x.example\n',
      'store_id,name,email\na,x,a@x.example\nb,y,bad\nc,"unterminated\n',
      'store_id,name\na,x\nb,"y\n',
      'store_id,name\na,x\n',
      '',
    ]) {
      const { memory, streamed } = await both('contacts.csv', text);
      expect(memory.startsWith('error')).toBe(true);
      expect(streamed).toBe(memory);
    }
    for (const text of ['{"store_id":"a","email":"bad"}\nnot json\n', '{"store_id":"a","email":"a@x.example"}\n\n{"store_id":"a","email":"a@x.example"}']) {
      const { memory, streamed } = await both('contacts.ndjson', text);
      expect(streamed).toBe(memory);
    }
  });

  it('refuses bytes that are not UTF-8 (Latin-1 é), naming the line, rather than carry U+FFFD', async () => {
    const latin1 = Buffer.from('Jos\xe9 Mu\xf1oz', 'latin1');
    for (const [name, head, tail] of [
      ['contacts.csv', 'store_id,name,email,role,source\ns1,Ann,a@x.example,,\ns2,', ',b@x.example,,\n'],
      ['contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n{"store_id":"s2","name":"', '","email":"b@x.example"}\n'],
    ] as const) {
      const bytes = Buffer.concat([Buffer.from(head), latin1, Buffer.from(tail)]);
      const { memory, streamed } = await both(name, bytes);
      const line = name.endsWith('csv') ? 3 : 2;
      expect(memory).toMatch(new RegExp(`^error: .*${name.replace('.', '\\.')}: line ${line}: not UTF-8 encoded`));
      expect(streamed).toBe(memory);
    }
  });

  it.each([
    // A repeated column was read from its last place without a word; the panel refuses one.
    ['a column named twice', 'contacts.csv', 'store_id,email,name,email\ns1,a@x.example,Ann,b@x.example\n', 'row 1, column email: the header names email twice'],
    // csv-parse's own words named a physical line ("on line 5"), not the row the panel's messages count.
    ['an unquoted comma after a value with a line break', 'contacts.csv', 'store_id,email,name\ns1,a@x.example,"Ann\nLee"\ns2,b@x.example,Lee, Bo\n', 'row 3: 4 fields where the header has 3 (a value holding a comma is quoted whole: "Lee, Ann")'],
    ['a quote inside an unquoted value', 'contacts.csv', 'store_id,email,name\ns1,a@x.example,Ann "Jo" Lee\n', 'row 2: a quote inside a value that is not quoted whole'],
    ['a quote never closed', 'contacts.csv', 'store_id,email,name\ns1,a@x.example,"Ann\n', 'row 2: a quoted value is never closed (unterminated quote)'],
    // Only spaces: as empty as none in the panel, and a contact no store could ever match.
    // In the words of every other door that takes a store id (core/panel-contract.ts storeIdRefusal).
    ['a store id of only spaces', 'contacts.csv', 'store_id,email\n   ,a@x.example\n', 'row 2, column store_id: must not be empty or only spaces'],
    ['a store id of only blanks the panel trims', 'contacts.csv', 'store_id,email\n\u00a0\u3000,a@x.example\n', 'row 2, column store_id: must not be empty or only spaces'],
    ['a store id longer than the API takes', 'contacts.csv', `store_id,email\n${'s'.repeat(501)},a@x.example\n`, 'row 2, column store_id: must be at most 500 characters'],
    // A spreadsheet's 1.23457E+11 named no store: the contact was carried, then matched nothing.
    ['a store id in scientific notation', 'contacts.csv', 'store_id,email\n1.23457E+11,a@x.example\n', 'row 2, column store_id: "1.23457E+11" is a number in scientific notation, as a spreadsheet saves a long id it read as a number'],
    // A lone surrogate was carried, then written by the drivers as U+FFFD.
    ['an unpaired surrogate', 'contacts.ndjson', '{"store_id":"s1","email":"a@x.example","name":"Ann \\ud800"}\n', 'row 1, column name: must not contain U+0000 or an unpaired surrogate'],
    // A spreadsheet set to another list separator: "the required column store_id is missing (columns: store_id;email)".
    ['a header separated by semicolons', 'contacts.csv', 'store_id;email\ns1;a@x.example\n', 'row 1: the header "store_id;email" is separated by semicolons, where a CSV file is separated by commas'],
    // A failed export: an empty NDJSON file was carried as a source of no contacts, and ingest
    // then emptied the workspace's; an empty CSV was "the required column store_id is missing".
    ['an empty NDJSON file', 'contacts.ndjson', '', 'row 1: the file is empty (no records)'],
    ['a CSV file of blank lines', 'contacts.csv', '\n\r\n', 'row 1: the file is empty (no header row naming the columns, and no records)'],
    ['a byte order mark in NDJSON', 'contacts.ndjson', '\ufeff{"store_id":"s1","email":"a@x.example"}\n', 'row 1: the file starts with a byte order mark (BOM), which NDJSON does not take'],
    // Said as Latin-1 ("line 1: not UTF-8 encoded …, as Latin-1 or Windows-1252 write é"), or a
    // spreadsheet as "the required column store_id is missing (columns: PK)": the panel says what they are.
    ['a gzip-compressed CSV', 'contacts.csv', gzipSync('store_id,email\ns1,a@x.example\n'), 'gzip-compressed (its first bytes are gzip\'s): decompress it (gunzip) first'],
    ['UTF-16 without a byte order mark', 'contacts.csv', Buffer.from('store_id,email\ns1,caf\u00e9@x.example\n', 'utf16le'), 'not UTF-8 encoded (UTF-16: a NUL byte beside every letter, without a byte order mark)'],
    ['a spreadsheet renamed .csv', 'contacts.csv', Buffer.from('PK\x03\x04\x14\x00\x06\x00\x08\x00', 'latin1'), 'a zip archive (its first bytes are zip\'s), such as a spreadsheet (.xlsx, .ods) renamed'],
    // Was "row 1: not JSON (Unexpected end of JSON input)".
    // Was carried with the last email: JSON.parse keeps the last value of a key named twice, where the panel refuses the record.
    // Was "row 2: expected a JSON object", where the panel and import say what the line is.
    ['a record that is a number', 'contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n42\n', 'row 2: not a JSON object (42): NDJSON has one contact object per line'],
    // Was "(null)": JSON.parse reads 1e400 as Infinity, which JSON.stringify writes null.
    ['a record that is a number past a double', 'contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n 1e400\n', 'row 2: not a JSON object (1e400): NDJSON has one contact object per line'],
    ['a record naming a key twice', 'contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n{"store_id":"s2","email":"b@x.example","email":"c@x.example"}\n', 'row 2: names the key "email" twice: keep one (which value is meant only the file can say)'],
    ['a JSON array', 'contacts.ndjson', '[\n  {"store_id":"s1","email":"a@x.example"},\n  {"store_id":"s2","email":"b@x.example"}\n]\n', 'row 1: the file is a JSON array, where NDJSON has one JSON object per line'],
  ])('refuses %s, naming the row as the panel does, alike on both paths', async (_what, name, text, message) => {
    const { memory, streamed } = await both(name, text);
    expect(memory).toContain(`${name}: ${message}`);
    expect(streamed).toBe(memory);
  });

  it('reads a numeric store id exactly or refuses it: one past 2^53 was rounded when parsed', async () => {
    const exact = await both('contacts.ndjson', '{"store_id":9007199254740991,"email":"a@x.example"}\n');
    expect(exact.memory).toContain('"store_id":"9007199254740991"');
    expect(exact.streamed).toBe(exact.memory);
    const rounded = await both('contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n{"store_id":9007199254740993,"email":"b@x.example"}\n');
    expect(rounded.memory).toMatch(/^error: .*contacts\.ndjson: row 2, column store_id: a number too large to read exactly \(9007199254740992\): write it as a JSON string$/);
    expect(rounded.streamed).toBe(rounded.memory);
    // An exponent is read as the integer it is (the panel refuses 1e3, and reads 1000 as "1000"); a fraction is no store id.
    const exponent = await both('contacts.ndjson', '{"store_id":1e3,"email":"a@x.example"}\n');
    expect(exponent.memory).toContain('"store_id":"1000"');
    expect(exponent.streamed).toBe(exponent.memory);
    const fraction = await both('contacts.ndjson', '{"store_id":"s1","email":"a@x.example"}\n{"store_id":12.5,"email":"b@x.example"}\n');
    expect(fraction.memory).toMatch(/^error: .*contacts\.ndjson: row 2, column store_id: a number with a fraction \(12\.5\) is no store id: write the id as a JSON string or an integer$/);
    expect(fraction.streamed).toBe(fraction.memory);
  });
});
