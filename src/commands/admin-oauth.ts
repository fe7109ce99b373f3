/** storelens oauth register — pre-registers an assistant (a public client with PKCE) for the OAuth sign-in. */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { redirectUriProblem } from '../oauth/redirect-uris.js';
import { registerOAuthClient } from '../oauth/store.js';
import type { Config } from '../settings/config.js';
import { output, withAdminDb } from './admin-db.js';

export async function registerClientCommand(clientId: string, opts: Config<'oauth register'>, env: Env): Promise<void> {
  const id = clientId.trim();
  if (!id || id.length > 200 || /\s/.test(id)) throw new CliError('client-id: give a non-empty id without spaces (up to 200 characters)');
  const redirects = [...opts.redirectUri];
  for (const r of redirects) {
    const problem = redirectUriProblem(r);
    if (problem) throw new CliError(`--redirect-uri: ${problem}`);
  }
  await withAdminDb(opts, env, async (db) => {
    await registerOAuthClient(db, { client_id: id, client_name: opts.clientName, redirect_uris: redirects }, env.now());
    output(env, opts, { client_id: id, client_name: opts.clientName ?? null, redirect_uris: redirects }, `Registered the assistant "${id}" (public client, PKCE S256) with redirect URIs ${redirects.join(', ')}.\n`);
  });
}
