/**
 * The examples of the guides (README.md, docs/*.md) as data: fenced code blocks with their file,
 * line and heading; HTTP transcripts (`HTTP/1.1 <status>`, headers, body); the curl commands of a
 * block (method, /api/v1 path, query, headers, `-d` body), split as a shell would (shell-quote);
 * and JSON written with elisions (`[…]`, `{ … }`, `…,`) made parseable with the elided places marked.
 */
import { parse as shellParse } from 'shell-quote';

export interface CodeBlock {
  file: string;
  /** Line (1-based) of the block's first content line. */
  line: number;
  /** The fence's info string (`json`, `sh`, '' …). */
  lang: string;
  text: string;
  /** The nearest heading above the block, without its `#`s. */
  heading: string;
}

export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const out: CodeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^#{1,6} (.+)$/.exec(lines[i]!);
    if (h) heading = h[1]!.trim();
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 1}: code block never closed`);
    out.push({ file, line: i + 2, lang: open[1]!, text: lines.slice(i + 1, end).join('\n'), heading });
    i = end;
  }
  return out;
}

export const at = (b: CodeBlock, offset = 0) => `${b.file}:${b.line + offset}`;

export interface Transcript {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Line offset of the body within the block. */
  bodyOffset: number;
}

/** The block as an HTTP response transcript, or undefined when it does not start with a status line (`HTTP/1.1 200 OK`). */
export function transcript(b: CodeBlock): Transcript | undefined {
  const lines = b.text.split('\n');
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})\b/.exec(lines[0]!);
  if (!status) return undefined;
  const blank = lines.indexOf('');
  const headerLines = lines.slice(1, blank < 0 ? lines.length : blank);
  const headers = Object.fromEntries(
    headerLines.map((l) => {
      const colon = l.indexOf(':');
      return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(status[1]), headers, body: blank < 0 ? '' : lines.slice(blank + 1).join('\n'), bodyOffset: blank + 1 };
}

export interface Curl {
  /** Line offset of the command within its block. */
  offset: number;
  method: string;
  url: string;
  /** The path under /api/v1 (`/deals/$DEAL/stage`), or undefined for a URL outside the workspace API. */
  path?: string;
  query: Record<string, string | string[]>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  data?: string;
}

/** Options of curl that take a value, as the examples use them. */
const VALUED = new Set(['-X', '--request', '-H', '--header', '-d', '--data', '--data-raw', '--data-binary', '-o', '--output', '-u', '--user']);

/**
 * Every curl command of a block. A shell variable (`$KEY`, `"$STORE"`) stands as its name
 * (`$KEY`); a URL `$BASE/...` without `/api/v1` names a base that ends in it.
 */
export function curls(b: CodeBlock): Curl[] {
  const out: Curl[] = [];
  const lines = b.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let command = lines[i]!;
    while (command.endsWith('\\') && i + 1 < lines.length) command = command.slice(0, -1) + ' ' + lines[++i]!;
    const tokens = shellParse(command, (name) => `$${name}`);
    tokens.forEach((t, k) => {
      if (t !== 'curl') return;
      const c: Curl = { offset: start, method: '', url: '', query: {}, headers: {} };
      for (let j = k + 1; j < tokens.length; j++) {
        const arg = tokens[j]!;
        if (typeof arg !== 'string') break;
        if (VALUED.has(arg)) {
          const value = String(tokens[++j]);
          if (arg === '-X' || arg === '--request') c.method = value;
          else if (arg === '-H' || arg === '--header') {
            const colon = value.indexOf(':');
            c.headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
          } else if (arg.startsWith('-d') || arg.startsWith('--data')) c.data = value;
        } else if (!arg.startsWith('-')) c.url = arg;
      }
      c.method ||= c.data === undefined ? 'GET' : 'POST';
      const [target, search = ''] = c.url.split('?', 2) as [string, string?];
      const api = target.indexOf('/api/v1');
      if (api >= 0) c.path = target.slice(api + '/api/v1'.length);
      else if (/^\$[A-Z_]+\//.test(target) && !target.includes('/api/')) c.path = target.replace(/^\$[A-Z_]+/, '');
      for (const [name, value] of new URLSearchParams(search)) {
        const had = c.query[name];
        c.query[name] = had === undefined ? value : [...[had].flat(), value];
      }
      out.push(c);
    });
  }
  return out;
}

/** Stands in the parsed value for what an example leaves out: an array element, or an object member's name. */
export const ELIDED = '…';

/**
 * JSON text with elisions made parseable: a bare `…` outside strings becomes the member
 * `"…": null` in an object and the element `"…"` in an array (strings are left as they are).
 */
export function withElisions(text: string): string {
  const stack: string[] = [];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end + 1);
      i = end;
      continue;
    }
    if (ch === '{' || ch === '[') stack.push(ch);
    if (ch === '}' || ch === ']') stack.pop();
    out += ch === ELIDED ? (stack.at(-1) === '{' ? `"${ELIDED}":null` : `"${ELIDED}"`) : ch;
  }
  return out;
}

function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
