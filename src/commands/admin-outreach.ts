/** storelens outreach sender --workspace W --url URL --as EMAIL: the workspace's delivery adapter for outreach steps. */
import { clearSender, getSender, setSender } from '../outreach/store.js';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { checkTarget, RefusedTarget, systemResolver } from '../outbound/ssrf.js';
import type { Config } from '../settings/config.js';
import { loadSecretBox, newSigningSecret } from '../outbound/secrets.js';
import { output, requireOwnerOrAdmin, requireWorkspace, withAdminDb, writeAsOwnerOrAdmin } from './admin-db.js';

export async function senderCommand(opts: Config<'outreach sender'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, opts.as, 'set the outreach sender');
    if (opts.clear) {
      await writeAsOwnerOrAdmin(db, ws, opts.as, 'set the outreach sender', (trx) => clearSender(trx, ws.id));
      return output(env, opts, { workspace_id: ws.id, url: null }, `No outreach sender for ${ws.name}: steps are held`);
    }
    if (opts.url === undefined) {
      const s = await getSender(db.kysely, ws.id);
      return output(env, opts, { workspace_id: ws.id, url: s?.url ?? null }, s ? `Outreach sender of ${ws.name}: ${s.url}` : `No outreach sender for ${ws.name}: steps are held`);
    }
    const url = opts.url;
    // The guard every delivery runs (outreach/task.ts), run now: a URL it refuses would fail and
    // refund every step, the cause found only in the workers' log. A name that does not resolve
    // yet (not published, a DNS outage) may: it is set, with a warning.
    try {
      await checkTarget(url, { resolve: systemResolver, allowLocal: opts.webhooksAllowLocal ?? false });
    } catch (e) {
      if (!(e instanceof RefusedTarget)) throw e;
      if (!e.unresolved) throw new CliError(`--url ${url} cannot receive outreach steps: ${e.message}`);
      env.stderr.write(`warning: ${e.message}: each step fails (and is refunded) until it does\n`);
    }
    const box = await loadSecretBox(db.kysely, { key: opts.secretKey, previous: opts.previousSecretKey });
    const secret = newSigningSecret();
    await writeAsOwnerOrAdmin(db, ws, opts.as, 'set the outreach sender', (trx) => setSender(trx, ws.id, url, box.seal(secret), env.now()));
    output(env, opts, { workspace_id: ws.id, url, secret }, `Outreach sender of ${ws.name}: ${url}\nSigning secret (shown once): ${secret}`);
  });
}
