/**
 * Request bodies over HTTP: their size limit, and what a JSON body may be sent as — UTF-8
 * (RFC 8259), not content-coded. Anything else ⇒ 415 before the body is interpreted.
 */
import { MIMEType } from 'node:util';
import { ApiProblem } from './problems.js';

/** Largest accepted request body (bytes); larger ⇒ 413. */
export const BODY_LIMIT = 64 * 1024;

/** The limit in words for documents: `64 KiB`. */
export const bodyLimitText = (bytes: number): string => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/**
 * The 415 problem for a JSON body sent with a Content-Encoding other than identity, or with a
 * charset other than UTF-8; undefined when the body can be read as sent.
 */
export function unreadableJsonBody(contentType: string | undefined, contentEncoding: string | string[] | undefined): ApiProblem | undefined {
  const codings = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? ''))
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length > 0) {
    return new ApiProblem('unsupported-media-type', `Request bodies are read without content coding; send the JSON uncompressed (no Content-Encoding: ${codings.join(', ')}).`);
  }
  let charset: string | null = null;
  try {
    charset = new MIMEType(contentType ?? '').params.get('charset');
  } catch {
    return new ApiProblem('unsupported-media-type', 'The Content-Type header could not be read; send `application/json`.');
  }
  if (charset !== null && charset.toLowerCase() !== 'utf-8') {
    return new ApiProblem('unsupported-media-type', `JSON bodies are read as UTF-8; charset=${charset} is not supported.`);
  }
  return undefined;
}
