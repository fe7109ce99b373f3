/**
 * What a read with a markdown form answers when `format` is not given: the Accept header decides
 * between its JSON (the default) and `text/markdown`, by the weights the caller gives them
 * (RFC 9110 §12.5.1): `q=0` means "not acceptable", a lower weight "less preferred".
 */

/** One media range of an Accept header: `type/subtype` in lower case and its weight. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** A qvalue (RFC 9110 §12.4.2): 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype, ...more] = range.toLowerCase().split('/');
    if (!type || !subtype || more.length) continue;
    const q = params.find((p) => /^q\s*=/i.test(p))?.replace(/^q\s*=\s*/i, '');
    // A range with an unreadable weight says nothing we can rank: it is left out.
    if (q !== undefined && !QVALUE.test(q)) continue;
    ranges.push({ type, subtype, q: q === undefined ? 1 : Number(q) });
  }
  return ranges;
}

/** The weight the caller gives `type/subtype`: its most specific range's (the type itself, then any subtype of it, then any type), 0 when none covers it. */
function weightOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  const exact = ranges.find((r) => r.type === type && r.subtype === subtype);
  const anySubtype = ranges.find((r) => r.type === type && r.subtype === '*');
  const any = ranges.find((r) => r.type === '*' && r.subtype === '*');
  return (exact ?? anySubtype ?? any)?.q ?? 0;
}

/**
 * True when the caller asks for markdown: it names `text/markdown` with a weight above 0 and not
 * below the weight it gives JSON. Wildcard ranges alone (any type, any text type) keep the JSON default.
 */
export function acceptsMarkdown(accept: string | string[] | undefined): boolean {
  const ranges = mediaRanges(Array.isArray(accept) ? accept.join(',') : (accept ?? ''));
  if (!ranges.some((r) => r.type === 'text' && r.subtype === 'markdown')) return false;
  const markdown = weightOf(ranges, 'text', 'markdown');
  return markdown > 0 && markdown >= weightOf(ranges, 'application', 'json');
}
