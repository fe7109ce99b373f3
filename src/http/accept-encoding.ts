/**
 * Accept-Encoding (RFC 9110 §12.5.3): which content coding a response goes out in, among those
 * the server offers (`br`, `gzip`) and `identity`; and which bodies are worth offering coded.
 *
 * - No Accept-Encoding at all: identity. The RFC lets a server pick any coding then, but a client
 *   that sends none (a bare script, `curl` without `--compressed`) rarely decodes one.
 * - Codings are case-insensitive; `x-gzip` is `gzip` (§8.4.1.3). A member whose `q` is not a
 *   qvalue (`0`…`1`, three decimals at most) is ignored, as is an unknown coding.
 * - A coding's weight is its own entry's q, else that of `*`, else 0 (not acceptable).
 *   Identity's is its own entry's, else that of `*`; unlisted, it is acceptable (unless `*;q=0`
 *   excludes it) but comes after any coding listed, so `gzip;q=0.8` asks for gzip.
 * - The offered coding with the highest non-zero weight wins; on a tie the smaller output wins
 *   (br, then gzip, then identity). When nothing offered is acceptable (`identity;q=0` alone,
 *   or `br;q=0, gzip;q=0`), the answer is identity all the same: the RFC's SHOULD for a
 *   non-empty field that matches no available coding, rather than a 406.
 */

export type ContentCoding = 'br' | 'gzip';

/**
 * The weight (q, 0 to 1) the field gives each coding this server knows. Identity's orders it
 * against the others only: at 0 it is still the answer when no coding is acceptable.
 */
export interface CodingWeights {
  readonly br: number;
  readonly gzip: number;
  readonly identity: number;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weights of one Accept-Encoding field value (several fields joined with `, ` are one value). */
export function parseAcceptEncoding(header: string): CodingWeights {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let star: number | undefined;
  for (const member of header.split(',')) {
    const parts = member.split(';');
    const coding = parts[0].trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    let valid = true;
    for (let i = 1; i < parts.length; i++) {
      const eq = parts[i].indexOf('=');
      if (eq === -1 || parts[i].slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = parts[i].slice(eq + 1).trim();
      if (QVALUE.test(value)) q = Number(value);
      else valid = false;
    }
    if (!valid) continue;
    // The first entry of a coding counts (a repeated one is ignored).
    if (coding === 'br') br ??= q;
    else if (coding === 'gzip' || coding === 'x-gzip') gzip ??= q;
    else if (coding === 'identity') identity ??= q;
    else if (coding === '*') star ??= q;
  }
  return { br: br ?? star ?? 0, gzip: gzip ?? star ?? 0, identity: identity ?? star ?? 0 };
}

/** A parse per distinct field value; browsers send a handful, so this stays small. */
const parsed = new Map<string, CodingWeights>();
const PARSED_KEPT = 256;

function weightsOf(header: string): CodingWeights {
  let w = parsed.get(header);
  if (w === undefined) {
    w = parseAcceptEncoding(header);
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(header, w);
  }
  return w;
}

/**
 * The coding to send, or null for identity, given the request's Accept-Encoding (as Node
 * gives it: repeated fields joined) and whether each coding is on offer for this response.
 */
export function selectCoding(header: string | string[] | undefined, offer: { br: boolean; gzip: boolean } = ALL): ContentCoding | null {
  if (header === undefined) return null;
  const w = weightsOf(Array.isArray(header) ? header.join(', ') : header);
  const br = offer.br ? w.br : 0;
  const gzip = offer.gzip ? w.gzip : 0;
  if (br > 0 && br >= gzip && br >= w.identity) return 'br';
  if (gzip > 0 && gzip >= w.identity) return 'gzip';
  return null;
}

const ALL = { br: true, gzip: true };

/** Smallest body offered compressed (bytes). */
export const COMPRESSIBLE_MIN_BYTES = 1024;

/** Media types whose bodies are text (or text-like markup) and compress. */
const TEXT_TYPE = /^(?:text\/[a-z0-9.+-]+|application\/(?:json|xml|javascript|[a-z0-9.-]+\+(?:json|xml))|image\/svg\+xml)$/;

/** True for a media type (parameters aside) worth compressing: text, JSON, XML, SVG; never an image or an archive. */
export function compressibleType(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  return TEXT_TYPE.test((semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase());
}

/** True when an artifact of this type and length is offered compressed. */
export const compressible = (contentType: string, bytes: number): boolean => bytes >= COMPRESSIBLE_MIN_BYTES && compressibleType(contentType);
