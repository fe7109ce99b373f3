/**
 * Which redirect URIs an assistant may register, by `storelens oauth register`, by dynamic
 * registration or in a Client ID Metadata Document alike: https, http on a loopback address only
 * (native apps, RFC 8252 §7.3), or an app's own scheme (§7.1); never a fragment.
 */

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `uri` may not be a redirect URI (a sentence ending without a period), or undefined when it may. */
export function redirectUriProblem(uri: string): string | undefined {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not a URL`;
  }
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) return `"${uri}" uses http on a non-loopback host; use https`;
  if (u.hash || uri.includes('#')) return `"${uri}" must not have a fragment`;
  return undefined;
}
