/**
 * Every one of SPEC's eight event types is emitted by the change it describes, and
 * docs/webhooks.md shows each one's real shape. The test drives each producer once — deal
 * create / update / stage move and contact add over the API, re-ranks that make stores enter,
 * exit and gain a signal, a watch check that changes a watch's health — reads the outbox rows,
 * delivers them to a receiver, and compares each with the documented example: the same keys in
 * `data` (and in the objects inside it) and the same envelope; and each delivered payload parses
 * against its declared schema (src/<aggregate>/events.ts). SQLite always; PostgreSQL with
 * DATABASE_URL.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { EVENT_TYPES, eventDeclaration, type EventType } from '../../src/compose/events.js';
import { evaluateWatches } from '../../src/watches/evaluate.js';
import { apiKey, call, freshIdem } from '../helpers/api.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { settle, startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The example messages in the ```json blocks of `file`'s section `heading`, by type. */
function documentedExamples(file: string, heading: string): Map<string, Json> {
  const doc = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `${file} has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const examples = new Map<string, Json>();
  for (const [, block] of section.matchAll(/```json\n([\s\S]*?)```/g)) {
    const message = JSON.parse(block!) as Json;
    expect(examples.has(message.type), `one example of ${message.type} in ${file}`).toBe(false);
    examples.set(message.type, message);
  }
  return examples;
}

/**
 * The keys of a value, all the way down: an object's sorted keys with each value's shape, an
 * array's first element's shape (an empty array says nothing), anything else its kind.
 */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length > 0 ? [shape(v[0])] : [];
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Json)[k])]));
  return 'value';
}

const NOW = () => new Date();
/** The last two whole months: data a watch check treats as current. */
const MONTHS = [2, 1].map((back) => new Date(Date.UTC(NOW().getUTCFullYear(), NOW().getUTCMonth() - back, 1)).toISOString().slice(0, 7)) as [string, string];
/** 60 stores that differ in visits, plan and ads; every one with a signal in October, "s00" with a sharp fall in visits. */
function panel(): { stores: SeedStore[]; signals: SeedSignal[] } {
  const stores: SeedStore[] = [];
  const signals: SeedSignal[] = [];
  for (let i = 0; i < 60; i++) {
    const id = `s${String(i).padStart(2, '0')}`;
    stores.push({ store_id: id, domain: `${id}.example`, country: 'US', category: i % 2 ? 'beauty' : 'home', plan: ['basic', 'grow', 'plus'][i % 3]!, monthly_visits: 1000 + i * 150, apps: ['klaviyo'], ads: i % 4 === 0 ? ['meta'] : [] });
    signals.push(i === 0 ? { store_id: id, type: 'traffic_down', strength: 0.8, detail: 'Monthly visits down 60%' } : { store_id: id, type: 'app_installed', subject: 'klaviyo', strength: 0.5, detail: 'Installed klaviyo' });
  }
  return { stores, signals };
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the eight event types (${d.label})`, () => {
    let h: WebhookHarness;
    let rx: Receiver;
    beforeEach(async () => {
      h = await startWebhooks(d.name);
      rx = await startReceiver();
    });
    afterEach(async () => {
      await rx.close();
      await h.close();
    });

    it('each is emitted by the change it describes, delivered, and shaped like its example in docs/webhooks.md', async () => {
      const examples = documentedExamples('docs/webhooks.md', 'Event types');
      expect([...examples.keys()].sort()).toEqual([...EVENT_TYPES].sort());
      // Getting started's example is shaped as the guide's (which the events below are held to).
      const started = documentedExamples('docs/getting-started.md', 'Events (webhooks)');
      expect(started.size).toBeGreaterThan(0);
      for (const [type, message] of started) expect(shape(message), `getting-started.md's ${type}`).toEqual(shape(examples.get(type)));

      const key = await apiKey(h.db, h.wsId, ['read:accounts', 'write:deals', 'write:contacts', 'read:watch', 'write:watch']);
      const write = async (method: string, path: string, body: Json) => {
        const r = await call(h.base, method, path, { key, idem: freshIdem(), body });
        expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
        return r.body as Json;
      };
      const registered = await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url() } });
      expect(registered.status).toBe(201);
      const secret: string = registered.body.secret;

      const { stores, signals } = panel();
      await seedRun(h.db, MONTHS[0], 'run-09', stores, []);
      await seedRun(h.db, MONTHS[1], 'run-10', stores, signals);
      const newEvents = async (since: number) => (await listEvents(h.db.kysely, h.wsId)).slice(since);
      const types = (events: { type: EventType }[]) => [...new Set(events.map((e) => e.type))].sort();

      // The first ranking: the in-market list enters.
      await refreshWorkspace(h.db, h.wsId, NOW());
      let seen = 0;
      let events = await newEvents(seen);
      expect(types(events)).toEqual(['store.entered']);
      const inMarket = events.map((e) => e.data.store_id as string);
      expect(inMarket.length).toBeGreaterThan(2);
      seen += events.length;

      // Deals: created, changed, moved; one event each, nothing else.
      const store = inMarket[0]!;
      const deal = await write('POST', '/deals', { store_id: store, title: 'Spring relaunch', value: 12000, currency: 'EUR' });
      await write('PATCH', `/deals/${deal.id}`, { value: 15000 });
      await write('POST', `/deals/${deal.id}/stage`, { stage: 'proposal' });
      events = await newEvents(seen);
      expect(events.map((e) => e.type)).toEqual(['deal.created', 'deal.updated', 'deal.stage_changed']);
      expect(events.every((e) => e.data.deal_id === deal.id && e.data.store_id === store)).toBe(true);
      expect(events[0]!.data.deal).toMatchObject({ id: deal.id, stage: 'discovery', version: 1 });
      expect(events[1]!.data.changes).toEqual([{ field: 'value', from: 12000, to: 15000 }]);
      expect(events[2]!.data).toMatchObject({ from: 'discovery', to: 'proposal', version: 3 });
      seen += events.length;
      // A PATCH that changes nothing and a note emit nothing.
      await write('PATCH', `/deals/${deal.id}`, { value: 15000, title: 'Spring relaunch' });
      await write('POST', `/deals/${deal.id}/notes`, { body: 'Wants the proposal by Friday' });
      expect(await newEvents(seen)).toEqual([]);

      // A contact added by hand.
      const contact = await write('POST', '/contacts', { store_id: store, email: 'maya@example.com', name: 'Maya' });
      events = await newEvents(seen);
      expect(events.map((e) => e.type)).toEqual(['contact.created']);
      expect(events[0]!.data.contact).toEqual(contact);
      seen += events.length;

      // A disqualified account leaves the list at the next re-rank; a new strong signal for
      // every store (a corrected October run) is news for the stores that stay in.
      const leaving = inMarket[1]!;
      await write('POST', `/accounts/${leaving}/status`, { status: 'disqualified' });
      const corrected = [...signals, ...stores.map((s): SeedSignal => ({ store_id: s.store_id, type: 'ad_channel_started', subject: 'tiktok', strength: 1, detail: 'Started advertising on TikTok' }))];
      await seedRun(h.db, MONTHS[1], 'run-10b', stores, corrected);
      await refreshWorkspace(h.db, h.wsId, NOW());
      events = await newEvents(seen);
      expect(events.filter((e) => e.type === 'store.exited').map((e) => e.data.store_id)).toContain(leaving);
      const news = events.filter((e) => e.type === 'store.signal');
      expect(news.length).toBeGreaterThan(0);
      for (const e of news) expect(e.data.signal).toMatchObject({ type: 'ad_channel_started', subject: 'tiktok' });
      seen += events.length;

      // A watch on the store whose visits fell: its first check finds it degraded.
      const watch = await write('POST', '/watches', { type: 'self_directed', store_ids: ['s00'] });
      await evaluateWatches(h.db, NOW());
      events = await newEvents(seen);
      expect(events.map((e) => e.type)).toEqual(['watch.health_changed']);
      expect(events[0]!.data).toMatchObject({ watch_id: watch.id, from: 'healthy', to: 'degraded' });

      // Every type was emitted; each delivery verifies, and each type's shape is its example's.
      const all = await listEvents(h.db.kysely, h.wsId);
      expect(types(all)).toEqual([...EVENT_TYPES].sort());
      await settle(h.deliverer());
      expect(rx.received).toHaveLength(all.length);
      const delivered = new Map(rx.received.map((r) => [(verify(secret, r) as Json).id as string, r.json as Json]));
      for (const type of EVENT_TYPES) {
        const example = examples.get(type)!;
        for (const e of all.filter((x) => x.type === type && !('reason' in x.data))) {
          const body = delivered.get(e.id)!;
          expect(body, `${type} ${e.id} was delivered`).toBeDefined();
          expect(shape({ ...body, data: null }), `the envelope of ${type}`).toEqual(shape({ ...example, data: null }));
          expect(shape(body.data), `data of ${type} as docs/webhooks.md shows it`).toEqual(shape(example.data));
        }
      }
      // Every delivered payload (those with a `reason` too) is what its declaration's schema
      // says, member for member: nothing missing, nothing of another kind, nothing undeclared.
      for (const e of all) {
        const data = (delivered.get(e.id) as Json).data;
        const parsed = eventDeclaration(e.type).payload.safeParse(data);
        expect(parsed.success, `${e.type} ${e.id} as declared: ${parsed.error?.message}`).toBe(true);
        expect(parsed.data, `${e.type} ${e.id} has only declared members`).toEqual(data);
      }
    }, 60_000);
  });
}
