/**
 * Repeated member names in a JSON body. RFC 8259 §4 leaves an object with a name twice to the
 * parser: JSON.parse keeps the last, a proxy, a log or the client's own validator may read the
 * first, so `{"stage": "won", "stage": "lost"}` would mean one thing to them and another here.
 * The API refuses such a body (api/executor.ts), as it does a query parameter given twice; every
 * NDJSON door refuses such a record (panel/read-errors.ts keyNamedTwice).
 */

/** What a caller is told of a parameter or tool argument given more than once (REST and MCP say the same). */
export const GIVEN_TWICE = 'given more than once; send it once';
/** What a caller is told of a JSON member its object names twice. */
export const NAMED_TWICE = 'given more than once in its object; send it once';

type Frame = { kind: 'object'; names: Set<string>; name: string | undefined; expectName: boolean } | { kind: 'array'; index: number };

/** A frame's part of a path: the member being read, or the element's index. */
const segment = (f: Frame): string => (f.kind === 'object' ? f.name! : String(f.index));

/**
 * The path (`['steps', '1', 'day']`: the enclosing members' names and elements' indices, then the
 * name) of the first member whose name its object already has, or undefined. `text` is JSON that
 * JSON.parse accepted; names compare as decoded (`"a"` and `"\u0061"` are one name).
 */
export function repeatedMember(text: string): string[] | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectName) {
        const literal = text.slice(i, end + 1);
        const name = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
        if (top.names.has(name)) return [...stack.slice(0, -1).map(segment), name];
        top.names.add(name);
        top.name = name;
        top.expectName = false;
      }
      i = end;
    } else if (c === '{') stack.push({ kind: 'object', names: new Set(), name: undefined, expectName: true });
    else if (c === '[') stack.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack[stack.length - 1]!;
      if (top.kind === 'object') top.expectName = true;
      else top.index++;
    }
  }
  return undefined;
}
