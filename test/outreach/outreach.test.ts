/**
 * Outreach over a real socket on SQLite and PostgreSQL: cadences, enrollments (charged, 422 for
 * accounts that must not be contacted), steps advancing on an injected clock in the worker,
 * held without a sender, sent signed to the workspace's sender (each a debit and a supervision
 * entry), posted again with the same webhook-id when the worker sending it died, and stopped by a won or lost outcome or deal, or by stop_outreach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact } from '../../src/contacts/store.js';
import { newId } from '../../src/db/ids.js';
import { setPilotAccess } from '../../src/workspaces/store.js';
import { SEND_CLAIM_MS } from '../../src/outreach/store.js';
import { runOutreach } from '../../src/outreach/task.js';
import type { OutboundRuntime } from '../../src/outbound/runtime.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { seedAccounts } from '../helpers/accounts.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';
import { type Receiver, selfSigned, startReceiver, verify } from '../helpers/receiver.js';

import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const DAY = 24 * 3600_000;
const OPS = ['list_outreach_cadences', 'create_outreach_cadence', 'enroll_outreach', 'list_outreach_enrollments', 'get_outreach_enrollment', 'stop_outreach'];

for (const d of dialects) {
  describe.skipIf(d.skip)(`outreach on ${d.label}`, () => {
    let h: Harness;
    let runtime: OutboundRuntime;
    let receiver: Receiver;
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...Object.fromEntries(OPS.map((op) => [op, 'pilot'])), record_outcome: 'available', set_account_status: 'available', get_wallet: 'available', list_wallet_usage: 'available', list_wallet_approvals: 'available', get_supervision: 'available', create_deal: 'available' }, rateLimits: { write: 1000, read: 1000 } });
      runtime = await webhookRuntime(h.db.kysely, { allowLocal: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      receiver = await startReceiver({ tls: true });
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });

    const worker = () => runOutreach(h.db, { now: h.clock.now, outbound: runtime, ca: selfSigned().cert });
    /** A worker killed mid-send: it charges and records the due step, then its POST never returns; resolves to the headers it was sending. */
    const dyingWorker = () =>
      new Promise<Record<string, string>>((resolve, reject) => {
        runOutreach(h.db, { now: h.clock.now, outbound: runtime, send: (_target, _body, headers) => (resolve(headers), new Promise(() => {})) }).catch(reject);
      });

    async function setup(o: { funds?: string; pilot?: boolean } = {}) {
      const ws = await workspace(h.db);
      if (o.pilot !== false) await setPilotAccess(h.db.kysely, ws.id, true);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'store-a', score: 0.9 },
        { store_id: 'store-b', score: 0.8 },
        { store_id: 'store-dnc', score: 0.7, status: 'do_not_contact' },
        { store_id: 'store-dq', score: 0.6, status: 'disqualified' },
      ]);
      const contact = async (store: string) => {
        const id = newId('con');
        const at = new Date().toISOString();
        await h.db.write((trx) => insertContact(trx, { id, workspace_id: ws.id, store_id: store, name: null, email: `${id}@example.com`, role: null, source: 'manual', source_detail: null, created_by: 'member:owner@example.com', created_at: at, updated_at: at }));
        return id;
      };
      if (o.funds) await run('wallet', 'credit', ws.name, o.funds, '--reason', 'outreach', '--as', 'owner@example.com');
      const key = await apiKey(h.db, ws.id, ['write:outreach', 'read:wallet', 'write:outcomes', 'write:deals']);
      const cadence = await call(h.base, 'POST', '/outreach/cadences', { key, idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }, { day: 3, name: 'follow-up' }, { day: 7, name: 'last note' }] } });
      expect(cadence.status).toBe(201);
      return { ws, key, cadence: cadence.body.id as string, contact };
    }
    const enroll = (key: string, body: object, idem = freshIdem()) => call(h.base, 'POST', '/outreach/enrollments', { key, idem, body });
    const get = async (key: string, id: string) => (await call(h.base, 'GET', `/outreach/enrollments/${id}`, { key })).body;

    it('is 404 pilot-required without pilot access', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['write:outreach']);
      const r = await call(h.base, 'GET', '/outreach/cadences', { key });
      expect(r.status).toBe(404);
      expect(r.body.type).toBe('https://storelens.dev/problems/pilot-required');
    });

    it('refuses accounts that must not be contacted (422), unknown things (404), foreign contacts (422), duplicates (409) and unfunded enrollments (409)', async () => {
      const { key, cadence, contact } = await setup({ funds: '10' });
      expect((await enroll(key, { store_id: 'store-dnc', contact_id: await contact('store-dnc'), cadence_id: cadence })).status).toBe(422);
      expect((await enroll(key, { store_id: 'store-dq', contact_id: await contact('store-dq'), cadence_id: cadence })).body.type).toBe('https://storelens.dev/problems/unprocessable');
      expect((await enroll(key, { store_id: 'store-a', contact_id: 'con_nope', cadence_id: cadence })).status).toBe(404);
      expect((await enroll(key, { store_id: 'store-a', contact_id: await contact('store-a'), cadence_id: 'cad_nope' })).status).toBe(404);
      expect((await enroll(key, { store_id: 'store-x', contact_id: await contact('store-a'), cadence_id: cadence })).status).toBe(404);
      expect((await enroll(key, { store_id: 'store-a', contact_id: await contact('store-b'), cadence_id: cadence })).status).toBe(422);
      const c = await contact('store-a');
      expect((await enroll(key, { store_id: 'store-a', contact_id: c, cadence_id: cadence })).status).toBe(201);
      expect((await enroll(key, { store_id: 'store-a', contact_id: c, cadence_id: cadence })).status).toBe(409);
      const poor = await setup();
      const r = await enroll(poor.key, { store_id: 'store-a', contact_id: await poor.contact('store-a'), cadence_id: poor.cadence });
      expect(r.status).toBe(409);
      expect(r.body.type).toBe('https://storelens.dev/problems/insufficient-funds');
    });

    it('advances steps on the cadence days and holds them when no sender is configured', async () => {
      const { key, cadence, contact } = await setup({ funds: '10' });
      const start = h.clock.now().getTime();
      const e = await enroll(key, { store_id: 'store-a', contact_id: await contact('store-a'), cadence_id: cadence });
      expect(e.body).toMatchObject({ status: 'active', next_step: 0, next_due_at: new Date(start).toISOString(), ledger_entry_id: expect.stringMatching(/^led_/) });
      await worker();
      expect((await get(key, e.body.id)).steps).toEqual([expect.objectContaining({ step: 0, day: 0, status: 'held', reason: 'no outreach sender is configured', ledger_entry_id: null })]);
      h.clock.advance(3 * DAY - 1000);
      await worker();
      expect((await get(key, e.body.id)).steps).toHaveLength(1);
      h.clock.advance(1000);
      await worker();
      const two = await get(key, e.body.id);
      expect(two.steps.map((s: any) => [s.step, s.due_at])).toEqual([[0, new Date(start).toISOString()], [1, new Date(start + 3 * DAY).toISOString()]]);
      expect(two.next_due_at).toBe(new Date(start + 7 * DAY).toISOString());
      h.clock.advance(4 * DAY);
      await worker();
      await worker();
      const done = await get(key, e.body.id);
      expect(done).toMatchObject({ status: 'completed', next_step: null, next_due_at: null });
      expect(done.steps).toHaveLength(3);
      const usage = (await call(h.base, 'GET', '/wallet/usage', { key })).body.data;
      expect(usage.filter((x: any) => x.kind === 'debit').map((x: any) => x.unit)).toEqual(['outreach_enrollment']);
    });

    it('refuses a sender URL every delivery would refuse (http, a private address), keeping the sender it had', async () => {
      const { ws } = await setup();
      const set = (url: string, ...more: string[]) => run('outreach', 'sender', ws.name, '--url', url, ...more, '--as', 'owner@example.com');
      const first = await set(receiver.url('/sender'), '--webhooks-allow-local');
      expect(first.code, first.stderr).toBe(0);
      for (const [url, why] of [
        [receiver.url('/sender').replace('hooks.test', '127.0.0.1'), /127\.0\.0\.1 is a loopback address; only public addresses are allowed/],
        ['http://sender.example/steps', /https/],
        ['https://10.1.2.3/steps', /10\.1\.2\.3 is a private address/],
      ] as const) {
        const r = await set(url);
        expect(r.code, url).toBe(2);
        expect(r.stderr).toMatch(new RegExp(`^storelens: --url ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot receive outreach steps: `));
        expect(r.stderr).toMatch(why);
      }
      expect((await run('outreach', 'sender', ws.name, '--as', 'owner@example.com', '--json')).json).toMatchObject({ url: receiver.url('/sender') });
      // A name that does not resolve yet may: set, with a warning.
      expect(first.stderr).toMatch(/^warning: the host hooks\.test does not resolve .*: each step fails \(and is refunded\) until it does$/m);
    });

    it('sends each due step signed to the sender, debits it and records it for supervision', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      const sender = await run('outreach', 'sender', ws.name, '--url', receiver.url('/sender'), '--webhooks-allow-local', '--as', 'owner@example.com', '--json');
      expect(sender.code, sender.stderr).toBe(0);
      const before = receiver.received.length;
      const e = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      await worker();
      const sent = receiver.received.slice(before);
      expect(sent).toHaveLength(1);
      expect(verify(sender.json.secret, sent[0]!)).toMatchObject({ type: 'outreach.step', enrollment_id: e.body.id, store_id: 'store-b', step: { index: 0, day: 0, name: 'intro email' } });
      const view = await get(key, e.body.id);
      expect(view.steps).toEqual([expect.objectContaining({ step: 0, status: 'sent', ledger_entry_id: expect.stringMatching(/^led_/) })]);
      const usage = (await call(h.base, 'GET', '/wallet/usage', { key })).body.data;
      expect(usage[0]).toMatchObject({ id: view.steps[0].ledger_entry_id, kind: 'debit', amount: -25, unit: 'outreach_step', operation_id: 'outreach_step', idempotency_key: `${e.body.id}:0` });
      const sup = (await call(h.base, 'GET', '/supervision?kind=outreach_step_sent', { key })).body.data;
      expect(sup).toEqual([expect.objectContaining({ ledger_entry_id: view.steps[0].ledger_entry_id, allowed_by: `enrollment:${e.body.id}`, actor: e.body.id ? expect.stringMatching(/^key:/) : '' })]);
      // A second worker turn at the same time sends nothing more.
      await worker();
      expect(receiver.received.length - before).toBe(1);
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBe(1000 - 100 - 25);
    });

    it('posts a step whose worker died after charging it on a later run, once, with the same webhook-id; its charge stands', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      const sender = await run('outreach', 'sender', ws.name, '--url', receiver.url('/sender'), '--webhooks-allow-local', '--as', 'owner@example.com', '--json');
      expect(sender.code, sender.stderr).toBe(0);
      const e = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      const before = receiver.received.length;
      const lost = await dyingWorker();
      const charged = await get(key, e.body.id);
      expect(charged.steps).toEqual([expect.objectContaining({ step: 0, status: 'sending', ledger_entry_id: expect.stringMatching(/^led_/) })]);
      // Its claim still holds: no other run posts it meanwhile.
      await worker();
      expect(receiver.received.length - before).toBe(0);
      h.clock.advance(SEND_CLAIM_MS);
      await worker();
      const sent = receiver.received.slice(before);
      expect(sent.map((r) => r.id)).toEqual([lost['webhook-id']]);
      expect(verify(sender.json.secret, sent[0]!)).toMatchObject({ type: 'outreach.step', id: lost['webhook-id'], enrollment_id: e.body.id, step: { index: 0, day: 0, name: 'intro email' } });
      expect((await get(key, e.body.id)).steps).toEqual([expect.objectContaining({ step: 0, status: 'sent', ledger_entry_id: charged.steps[0].ledger_entry_id })]);
      h.clock.advance(SEND_CLAIM_MS);
      await worker();
      expect(receiver.received.length - before).toBe(1);
      const usage = (await call(h.base, 'GET', '/wallet/usage', { key })).body.data;
      expect(usage.filter((x: any) => x.unit === 'outreach_step').map((x: any) => x.kind)).toEqual(['debit']);
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBe(1000 - 100 - 25);
    });

    it('refunds a step whose worker died after charging it when the sender refuses it on the later run', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      expect((await run('outreach', 'sender', ws.name, '--url', receiver.url('/sender'), '--webhooks-allow-local', '--as', 'owner@example.com')).code).toBe(0);
      const e = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      const lost = await dyingWorker();
      h.clock.advance(SEND_CLAIM_MS);
      const before = receiver.received.length;
      receiver.respond = () => ({ status: 503 });
      try {
        await worker();
      } finally {
        receiver.respond = () => ({ status: 200 });
      }
      expect(receiver.received.slice(before).map((r) => r.id)).toEqual([lost['webhook-id']]);
      expect((await get(key, e.body.id)).steps).toEqual([expect.objectContaining({ step: 0, status: 'failed', reason: 'the sender did not accept it: HTTP 503' })]);
      const usage = (await call(h.base, 'GET', '/wallet/usage', { key })).body.data;
      expect(usage.filter((x: any) => x.unit === 'outreach_step' || x.kind === 'refund').map((x: any) => x.kind).sort()).toEqual(['debit', 'refund']);
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBe(1000 - 100);
    });

    it('sends nothing of a step whose worker died once its enrollment was stopped meanwhile: failed and refunded', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      expect((await run('outreach', 'sender', ws.name, '--url', receiver.url('/sender'), '--webhooks-allow-local', '--as', 'owner@example.com')).code).toBe(0);
      const e = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      await dyingWorker();
      expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 'store-b', action: 'won', value: 10 } })).status).toBe(200);
      h.clock.advance(SEND_CLAIM_MS);
      const before = receiver.received.length;
      await worker();
      expect(receiver.received.length - before).toBe(0);
      expect((await get(key, e.body.id)).steps).toEqual([expect.objectContaining({ step: 0, status: 'failed', reason: expect.stringMatching(/^the enrollment was stopped/) })]);
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBe(1000 - 100);
    });

    it('stops the store\'s enrollments on a won outcome, a lost deal, or stop_outreach', async () => {
      const { key, cadence, contact } = await setup({ funds: '10' });
      const a = await enroll(key, { store_id: 'store-a', contact_id: await contact('store-a'), cadence_id: cadence });
      const b = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 'store-a', action: 'won', value: 10 } })).status).toBe(200);
      expect(await get(key, a.body.id)).toMatchObject({ status: 'stopped', stop_reason: expect.stringMatching(/^outcome .* won$/) });
      const deal = await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'store-b', title: 'x', stage: 'lost', lost_reason: 'timing' } });
      expect(deal.status, JSON.stringify(deal.body)).toBe(201);
      expect(await get(key, b.body.id)).toMatchObject({ status: 'stopped', stop_reason: expect.stringMatching(/lost$/) });
      h.clock.advance(10 * DAY);
      await worker();
      expect((await get(key, a.body.id)).steps).toEqual([]);
      const c = await enroll(key, { store_id: 'store-a', contact_id: await contact('store-a'), cadence_id: cadence });
      const stop = await call(h.base, 'POST', `/outreach/enrollments/${c.body.id}/stop`, { key, idem: freshIdem() });
      expect(stop.body).toMatchObject({ status: 'stopped' });
      expect((await call(h.base, 'POST', `/outreach/enrollments/${c.body.id}/stop`, { key, idem: freshIdem() })).status).toBe(409);
      const list = await call(h.base, 'GET', '/outreach/enrollments?status=stopped&limit=2', { key });
      expect(list.body.data).toHaveLength(2);
      expect(list.body.next_cursor).not.toBeNull();
    });

    it('stops every running enrollment when pilot access is withdrawn: nothing more sent or charged', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      const sender = await run('outreach', 'sender', ws.name, '--url', receiver.url('/sender'), '--webhooks-allow-local', '--as', 'owner@example.com', '--json');
      expect(sender.code, sender.stderr).toBe(0);
      const a = await enroll(key, { store_id: 'store-a', contact_id: await contact('store-a'), cadence_id: cadence });
      const b = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      await worker();
      const balance = async () => (await call(h.base, 'GET', '/wallet', { key })).body.balance;
      const paid = await balance();
      const sent = receiver.received.length;
      const off = await run('workspaces', 'pilot', 'off', '--workspace', ws.id, '--json');
      expect(off.code, off.stderr).toBe(0);
      expect(off.json).toMatchObject({ pilot_access: false, stopped_enrollments: 2 });
      h.clock.advance(10 * DAY);
      await worker();
      expect(receiver.received.length).toBe(sent);
      expect(await balance()).toBe(paid);
      await setPilotAccess(h.db.kysely, ws.id, true);
      for (const e of [a, b]) expect(await get(key, e.body.id)).toMatchObject({ status: 'stopped', stop_reason: 'pilot access was withdrawn', steps: [expect.objectContaining({ step: 0, status: 'sent' })] });
    });

    it('withdraws the pending approval of an enrollment stopped while awaiting it (stop_outreach, a won outcome, pilot access withdrawn): no one is asked to decide, nothing debited', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      const rules = await run('wallet', 'rules', ws.name, '--auto-approve-below', '1', '--as', 'owner@example.com');
      expect(rules.code, rules.stderr).toBe(0);
      const waiting = async (store: string) => {
        const e = await enroll(key, { store_id: store, contact_id: await contact(store), cadence_id: cadence });
        expect(e.status, JSON.stringify(e.body)).toBe(202);
        expect(e.body).toMatchObject({ status: 'awaiting_approval', approval_id: expect.stringMatching(/^apr_/) });
        return e.body as { id: string; approval_id: string };
      };
      const byKey = await waiting('store-a');
      const byOutcome = await waiting('store-b');
      const byPilot = await waiting('store-a');
      const pending = async () => (await call(h.base, 'GET', '/wallet/approvals?status=pending', { key })).body.data.map((a: any) => a.id);
      expect((await pending()).sort()).toEqual([byKey.approval_id, byOutcome.approval_id, byPilot.approval_id].sort());

      expect((await call(h.base, 'POST', `/outreach/enrollments/${byKey.id}/stop`, { key, idem: freshIdem() })).body).toMatchObject({ status: 'stopped' });
      expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 'store-b', action: 'won', value: 10 } })).status).toBe(200);
      const off = await run('workspaces', 'pilot', 'off', '--workspace', ws.id, '--json');
      expect(off.json).toMatchObject({ stopped_enrollments: 1 });
      await setPilotAccess(h.db.kysely, ws.id, true);

      expect(await pending()).toEqual([]);
      const withdrawn = (await call(h.base, 'GET', '/wallet/approvals?status=withdrawn', { key })).body.data;
      expect(Object.fromEntries(withdrawn.map((a: any) => [a.id, [a.decided_by, a.ledger_entry_id]]))).toEqual({
        [byKey.approval_id]: [expect.stringMatching(/^stopped by key:/), null],
        [byOutcome.approval_id]: [expect.stringMatching(/^outcome .* won$/), null],
        [byPilot.approval_id]: ['pilot access was withdrawn', null],
      });
      for (const e of [byKey, byOutcome, byPilot]) {
        expect(await get(key, e.id)).toMatchObject({ status: 'stopped', ledger_entry_id: null });
        // An owner who approves it later is told it ended, not asked to deny it; nothing is debited.
        const approve = await run('wallet', 'approve', e.approval_id, '--as', 'owner@example.com');
        expect(approve.code).not.toBe(0);
        expect(approve.stderr).toContain(`approval ${e.approval_id} is already withdrawn`);
      }
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBe(1000);
      expect((await call(h.base, 'GET', '/wallet/usage', { key })).body.data.filter((x: any) => x.kind !== 'credit')).toEqual([]);
    });

    it('ends an enrollment unsent and uncharged when its account became do_not_contact after enrolling', async () => {
      const { ws, key, cadence, contact } = await setup({ funds: '10' });
      const e = await enroll(key, { store_id: 'store-b', contact_id: await contact('store-b'), cadence_id: cadence });
      expect(e.status).toBe(201);
      const set = await call(h.base, 'POST', '/accounts/store-b/status', { key: await apiKey(h.db, ws.id, ['write:deals']), idem: freshIdem(), body: { status: 'do_not_contact' } });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const spentBefore = (await call(h.base, 'GET', '/wallet', { key })).body.balance;
      await worker();
      expect(await get(key, e.body.id)).toMatchObject({ status: 'stopped', stop_reason: "the account's status is do_not_contact", steps: [] });
      expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toEqual(spentBefore);
    });

    it("never shows another workspace's cadences or enrollments", async () => {
      const one = await setup({ funds: '10' });
      const two = await setup({ funds: '10' });
      const e = await enroll(one.key, { store_id: 'store-a', contact_id: await one.contact('store-a'), cadence_id: one.cadence });
      expect((await call(h.base, 'GET', `/outreach/enrollments/${e.body.id}`, { key: two.key })).status).toBe(404);
      expect((await call(h.base, 'POST', `/outreach/enrollments/${e.body.id}/stop`, { key: two.key, idem: freshIdem() })).status).toBe(404);
      expect((await enroll(two.key, { store_id: 'store-a', contact_id: await two.contact('store-a'), cadence_id: one.cadence })).status).toBe(404);
      expect((await call(h.base, 'GET', '/outreach/cadences', { key: two.key })).body.data.map((c: any) => c.id)).toEqual([two.cadence]);
    });
  });
}
