// For any contact file, valid or not, the contact source carried a record at a time
// (writeCheckedContacts: checked as read, sorted within a budget, spilled to run files beyond it)
// gives the bytes and id of the plain path (readContactsFile then contactsData), or its message.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactsData, readContactsFile, writeCheckedContacts } from '../../src/contacts/source.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-contact-props-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Store ids that sort apart only by a prefix, a surrogate pair against U+E000–U+FFFF, spaces, or
// are refused (empty, only spaces, scientific notation, U+0000).
const storeId = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('a', 'ab', 'a b', 'b', 'B', 'a\uFFFD', 'a\u{1F600}', 'a\uE000', 's-1', 's-10', ' s-2 ', '12') },
  { weight: 10, arbitrary: fc.nat(999).map((n) => `st${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', '1.2E+5', 'x\u0000y', 'q'.repeat(501)) },
);
// Emails that normalise alike (the domain's case, blanks around) and some that are no email.
const email = fc.oneof(
  { weight: 10, arbitrary: fc.nat(999).map((n) => `p${n}@Shop${n % 3}.example`) },
  { weight: 8, arbitrary: fc.constantFrom('ann@x.example', 'Ann@x.example', 'ann@X.EXAMPLE', ' bo@x.example ', 'c.d@y.example', 'e+f@y.example', "o'k@z.example") },
  { weight: 1, arbitrary: fc.constantFrom('', 'bad', 'a@b', 'two@@x.example', 'a b@x.example') },
);
// Optional text: commas, quotes, line breaks, control characters, blanks, long values, U+0000.
const text = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r\n', '\u0001', 'é', '\u2028', '\\', ';'), maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', 'n'.repeat(201), 'nul\u0000', ' x ') },
);
const contact = fc.record({ store_id: storeId, email, name: text, role: text, source: text });
type Contact = { store_id: string; email: string; name: string; role: string; source: string };

/** Contacts, some now and then listed again further on (the domain upper-cased: the same email). */
const contacts = fc.tuple(fc.array(contact, { maxLength: 40 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 })).map(([rows, repeats]): Contact[] => {
  const out = [...rows];
  for (const [which, after] of repeats) {
    if (out.length === 0) break;
    const again = out[which % out.length]!;
    const [local, domain = ''] = again.email.split('@');
    out.splice((which % out.length) + 1 + (after % out.length), 0, { ...again, email: `${local}@${domain.toUpperCase()}`, name: 'again' });
  }
  return out;
});

const COLUMNS = ['store_id', 'name', 'email', 'role', 'source'];
const quoted = (v: string): string => `"${v.replaceAll('"', '""')}"`;

/** A CSV file of the contacts: needed quotes always, every value at times; now and then a fault a reader refuses. */
const csvFile = fc
  .record({
    rows: contacts,
    quote: fc.boolean(),
    columns: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom<string[]>(COLUMNS, ['email', 'store_id'], ['source', 'email', 'store_id', 'role', 'name']) },
      { weight: 1, arbitrary: fc.constant<string[]>(['store_id', 'name']) },
    ),
    eol: fc.constantFrom('\n', '\r\n'),
    fault: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.constantFrom('a,"open', 'x,y,z,w,v,u', 'a "b" c,d', '\n')) }),
  })
  .map(({ rows, quote, columns, eol, fault }) => {
    const cell = (v: string): string => (quote || /[",\r\n]/.test(v) ? quoted(v) : v);
    const lines = [columns.join(','), ...rows.map((c) => columns.map((k) => cell(c[k as keyof Contact])).join(','))];
    if (fault) lines.splice(1 + (fault[0] % (lines.length)), 0, fault[1]);
    return lines.join(eol) + eol;
  });

/** An NDJSON file of the contacts: blank lines, numeric ids and absent cells; now and then a line a reader refuses. */
const ndjsonFile = fc
  .tuple(
    contacts,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('', '  ', '{"store_id":7,"email":"n@x.example"}', '{"store_id":12.5,"email":"n@x.example"}', '{"email":"n@x.example"}', '[1]', 'not json', '{"store_id":"a","email":"n@x.example","name":true}')), { maxLength: 3 }),
  )
  .map(([rows, odd]) => {
    const lines = rows.map((c) => JSON.stringify(c));
    for (const [at, line] of odd) lines.splice(at % (lines.length + 1), 0, line);
    return lines.join('\n') + '\n';
  });

/** The plain path's bytes, or its message; the streamed path's (its id checked against its bytes). */
async function both(name: string, text: string, limitBytes?: number): Promise<{ plain: string; streamed: string }> {
  const file = path.join(dir, 'panel', name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  const plain = await readContactsFile(file).then((rows) => contactsData(rows), (e: Error) => `error: ${e.message}`);
  const out = path.join(dir, 'scratch', 'contacts.ndjson');
  const spillDir = path.join(dir, 'scratch', 'spill');
  await mkdir(path.dirname(out), { recursive: true });
  const streamed = await writeCheckedContacts(file, out, { limitBytes, spillDir }).then(
    async (id) => {
      const bytes = await readFile(out);
      expect(id).toBe(typeof plain === 'string' ? '(the plain path failed)' : plain.id);
      return bytes.toString();
    },
    (e: Error) => `error: ${e.message}`,
  );
  // The run files are gone, whatever happened.
  expect(await readdir(spillDir).catch(() => [])).toEqual([]);
  return { plain: typeof plain === 'string' ? plain : plain.bytes.toString(), streamed };
}

describe('the contact source carried a record at a time, for any file', () => {
  for (const [what, limitBytes] of [
    ['held in memory', undefined],
    ['spilled to run files of a few contacts each', 2048],
  ] as const) {
    for (const [format, file, files] of [
      ['a CSV', 'contacts.csv', csvFile],
      ['an NDJSON', 'contacts.ndjson', ndjsonFile],
    ] as const) {
      it(`gives the plain path's bytes, id or first problem for ${format} file (${what})`, async () => {
        await fc.assert(
          fc.asyncProperty(files, async (text) => {
            const { plain, streamed } = await both(file, text, limitBytes);
            expect(streamed).toBe(plain);
          }),
          { numRuns: 150 },
        );
      });
    }
  }

  it('makes files of every outcome: carried, empty, a bad cell, a store and email listed twice, unreadable', async () => {
    // The properties above are only as good as their mix of files.
    const outcomes = new Set<string>();
    for (const text of fc.sample(csvFile, { numRuns: 100, seed: 7 })) {
      const { plain } = await both('contacts.csv', text);
      outcomes.add(
        !plain.startsWith('error') ? (plain === '' ? 'empty' : plain.split('\n').length > 5 ? 'carried' : 'few') : /listed twice/.test(plain) ? 'twice' : /, column /.test(plain) ? 'cell' : 'unreadable',
      );
    }
    expect([...outcomes].sort()).toEqual(['carried', 'cell', 'empty', 'few', 'twice', 'unreadable']);
  });
});
