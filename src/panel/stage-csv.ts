/**
 * A panel CSV file whose lines end partly LF and partly CRLF (a header saved on one system, records
 * appended on another), staged as the same file with one kind of line end is: DuckDB takes the
 * first line's end for every line's and cannot read it, the contact source's reader (csv-parse)
 * takes either. Only after DuckDB's read failed: the normal path is DuckDB's alone.
 */
import { createReadStream } from 'node:fs';
import { parse as parseStream } from 'csv-parse';
import { CliError } from '../core/errors.js';
import { ident, type Duck } from './duck.js';
import { lineEndFault } from './line-ends.js';
import { csvParseError } from './read-errors.js';

/** True when a CSV file's first line end unlike its header's is an LF where it ends CRLF, or the other way. */
export async function mixesLfAndCrlf(file: string): Promise<boolean> {
  const ends = await lineEndFault(file);
  return ends !== null && ends.header !== 'CR' && ends.found !== 'CR';
}

/**
 * Stages the `columns` of a CSV file's records (its `header` as csvLayout read it) in `table`, as
 * text in the file's order (the table's rowid is the record number), an empty value NULL as
 * DuckDB reads one. A record the reader cannot read is said as the contact source says it.
 */
export async function stageMixedLineEnds(duck: Duck, file: string, header: readonly string[], columns: readonly string[], table: string): Promise<void> {
  await duck.run(`CREATE OR REPLACE TEMP TABLE ${table} (${columns.map((c) => `${ident(c)} VARCHAR`).join(', ')})`);
  const at = columns.map((c) => header.indexOf(c));
  const appender = await duck.conn.createAppender(table);
  const input = createReadStream(file);
  const records = input.pipe(parseStream({ bom: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n', '\r'] }));
  input.once('error', (e) => records.destroy(e));
  let first = true;
  try {
    for await (const r of records as AsyncIterable<string[]>) {
      if (first) {
        first = false; // the header, read by csvLayout
        continue;
      }
      for (const k of at) {
        const v = r[k]!;
        if (v === '') appender.appendNull();
        else appender.appendVarchar(v);
      }
      appender.endRow();
    }
    appender.flushSync();
  } catch (e) {
    throw e instanceof CliError ? e : await csvParseError(file, e);
  } finally {
    appender.closeSync();
    input.destroy();
  }
}
