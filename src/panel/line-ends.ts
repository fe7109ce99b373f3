/**
 * How a CSV file's lines end, read only after a read of it failed: DuckDB takes every line of a
 * file to end as its first line does (a header saved CRLF, records appended LF stop it as "The
 * CSV Parser state machine reached an invalid state"), and a carriage return alone where the lines
 * end otherwise cuts a record in two at any reader. Said in words, naming the row, at every door.
 */
import { createReadStream } from 'node:fs';

export type LineEnd = 'CR' | 'CRLF' | 'LF';

/** A line end unlike the header's: the row it stands in (rows as every message counts them), the header's and its own. */
export interface LineEndFault {
  row: number;
  header: LineEnd;
  found: LineEnd;
  /** It ends an empty line, which is no row: the one after row `row - 1` (as a last line, it has no row `row`). */
  empty: boolean;
}

/**
 * The first line end of a CSV file, outside quotes, unlike the one its header (its first line that
 * is not empty) ends with, or null. Rows count the header as row 1, empty lines not counted, a
 * quoted value's line breaks not either. A lone CR where the header ends with LF or CRLF is told
 * in the row it stands in (it is taken for text in the line, not as its end). With `mixed`, LF and
 * CRLF may follow each other (the contact source's reader takes either): only a CR alone where
 * the header ends otherwise, or an LF in a file whose lines end with a CR alone, is unlike it.
 * With `toRow`, the file is read no further than that row (a reader's fault there is explained
 * by a line end before it, or not at all).
 */
export async function lineEndFault(file: string, { mixed = false, toRow = Infinity } = {}): Promise<LineEndFault | null> {
  let header: LineEnd | null = null;
  let row = 1;
  let quoted = false;
  /** the line holds a byte before its end (an empty line is no row) */
  let filled = false;
  /** the byte before was a CR outside quotes: a CRLF or a lone CR, told by the byte after it */
  let cr = false;
  const end = (found: LineEnd): LineEndFault | null => {
    if (header === null && !filled) return null; // an empty line before the header
    if (header === null) header = found;
    else if (found !== header && !(mixed && found !== 'CR' && header !== 'CR')) return { row, header, found, empty: !filled };
    if (filled) row++;
    filled = false;
    return null;
  };
  for await (const chunk of createReadStream(file)) {
    if (row > toRow) return null;
    for (const b of chunk as Buffer) {
      if (cr) {
        cr = false;
        const fault = end(b === 0x0a ? 'CRLF' : 'CR');
        if (fault) return fault;
        if (b === 0x0a) continue;
      }
      if (b === 0x22) quoted = !quoted;
      if (!quoted && b === 0x0d) cr = true;
      else if (!quoted && b === 0x0a) {
        const fault = end('LF');
        if (fault) return fault;
      } else filled = true;
    }
  }
  return cr ? end('CR') : null;
}

/** What a line end unlike the header's is told (after `<file>: `). */
export function lineEndWords({ row, header, found, empty }: LineEndFault): string {
  if (header === 'CR') {
    // Records ended by a CR alone, and a line feed in a value that is not quoted.
    return 'its lines end with a carriage return alone (CR, as old Mac spreadsheets save CSV), and a line feed (LF) stands in a value that is not quoted: save it as CSV with LF or CRLF line ends, a value holding a line break quoted whole';
  }
  if (found === 'CR') {
    return `row ${row}: a carriage return alone (CR) stands in the line, where the file's lines end with ${header}: a reader takes it for a line end and cuts the record in two; remove it, or quote the value that holds it whole`;
  }
  const line = empty ? `row ${row - 1}: the empty line after it` : `row ${row}: the line`;
  return `${line} ends with ${found} where the header ends with ${header} (line ends mixed in one file, as lines added by another program leave them), which the panel's reader cannot read: save the file with one kind of line end, all CRLF or all LF`;
}
