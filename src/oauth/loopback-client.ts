/**
 * Client ID Metadata Documents on http loopback URLs, for local development only (the setting
 * that lets webhooks use local URLs): oidc-provider fetches https documents itself; this reads
 * an `http://127.0.0.1:…/…` one through the same SSRF guard and the same rules (its `client_id`
 * is its own URL; a public client without secrets).
 */
import { checkTarget, type GuardOptions, RefusedTarget } from '../outbound/ssrf.js';
import type { OAuthPayload } from './store.js';

const MAX_BYTES = 16_384;

export async function loopbackClient(id: string, guard: GuardOptions): Promise<OAuthPayload | undefined> {
  if (!/^http:\/\//i.test(id) || id.includes('#')) return undefined;
  let target;
  try {
    target = await checkTarget(id, guard);
  } catch (e) {
    if (e instanceof RefusedTarget) return undefined;
    throw e;
  }
  if (!target.addresses.every((a) => a.address === '::1' || a.address.startsWith('127.'))) return undefined;
  if (target.url.pathname === '/' ) return undefined;
  let doc: unknown;
  try {
    const res = await fetch(id, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(2500) });
    const text = await res.text();
    if (res.status !== 200 || text.length > MAX_BYTES) return undefined;
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const props = doc as Record<string, unknown>;
  if (props.client_id !== id || 'client_secret' in props) return undefined;
  if (props.token_endpoint_auth_method !== undefined && props.token_endpoint_auth_method !== 'none' && props.token_endpoint_auth_method !== 'private_key_jwt') return undefined;
  return { token_endpoint_auth_method: 'none', application_type: 'native', ...props };
}
