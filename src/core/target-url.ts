/**
 * A URL storelens sends signed requests to: a webhook endpoint (the API and the assistant's
 * tools) and a workspace's outreach sender (`storelens outreach sender --url`). One rule for
 * both, so a URL one door keeps the other keeps too. Only its form is checked here; where it
 * may point (https, public addresses) is the SSRF guard's, which every door runs after this.
 */

/** The longest target URL kept. */
export const TARGET_URL_MAX = 2048;

/**
 * The URL as kept: blanks around it trimmed (a URL pasted with its line break), every other
 * character as given; or why it is refused.
 */
export function targetUrl(raw: string): { url: string } | { refusal: string } {
  const url = raw.trim();
  const refusal = targetUrlRefusal(url);
  return refusal === null ? { url } : { refusal };
}

/** Why a trimmed URL is not a target, in words that never repeat it (it may hold a token); null when it is one. */
function targetUrlRefusal(url: string): string | null {
  if (url.length > TARGET_URL_MAX) return `must be at most ${TARGET_URL_MAX} characters`;
  // The URL parser drops tabs and line breaks and encodes spaces silently: the URL kept would not be the one called.
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return 'must not contain spaces or control characters (percent-encode a space as %20)';
  const parsed = URL.parse(url);
  if (!parsed || !/^https?:$/.test(parsed.protocol) || !/^https?:\/\//i.test(url)) return 'must be an https URL, such as https://hooks.example.com/storelens';
  if (parsed.username || parsed.password) return 'must not hold a user name or password before its host';
  if (url.includes('#')) return 'must not have a fragment (#…): it is never sent to the server';
  return null;
}
