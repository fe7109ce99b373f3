/**
 * Watches: the managed watch (one per workspace, resized and cancelled), self-directed and
 * client watches (added, removed, their stores added and removed), and per watch its stores,
 * events, receipts and brief. Health is derived by src/watches/evaluate.ts at every ingest.
 */
import { z } from 'zod';
import { inMarketStoreIds } from '../accounts/index.js';
import {
  addWatchStores,
  deleteWatch,
  getManagedWatch,
  heldFindingEvents,
  insertWatch,
  lockedWatchCount,
  lockManagedWatch,
  pageWatchEvents,
  pageWatchReceipts,
  pageWatches,
  removeWatchStore,
  startManagedWatch,
  updateWatch,
} from './store.js';
import { setWatchHealth } from './set-health.js';
import { briefMarkdown, buildBrief } from './brief.js';
import { WATCH_ADD_MAX, WATCH_MAX_STORES, WATCH_TYPES, WATCHES_MAX } from './types.js';
import { acceptsMarkdown } from '../api/accept.js';
import { listPager } from '../api/cursor.js';
import { monthNumber, monthText } from '../core/month.js';
import { ApiProblem, found } from '../api/problems.js';
import { defineRoute } from '../api/route-def.js';
import { Deleted, page, pageQuery } from '../api/schemas.js';
import { health, Watch, WatchEvent, ManagedWatch, WatchReceipt, WatchStore, WatchBrief, storeIds, AddWatch } from './schemas.js';
import {
  findWatch,
  lockedWatch,
  watchList,
  watchPage,
  storesChange,
  changedWatch,
  toWatch,
  toEvent,
  toManaged,
  requireVisible,
  requireRoom,
  notManaged,
  byStore,
  common,
  watchParam,
  storeParam,
} from './answers.js';

export const watchRoutes = [
  defineRoute({
    ...common,
    operationId: 'get_managed_watch',
    method: 'GET',
    path: '/watch/managed',
    summary: 'Read managed-watch state',
    description:
      "The workspace's managed watch: the service watches its in-market accounts, best score first, up to the capacity. Status `none` (and health `paused`) until it is started with resize_managed_watch.",
    scope: 'read:watch',
    kind: 'read',
    response: ManagedWatch,
    async handler({ db, workspace }) {
      return { status: 200, body: await toManaged(db.kysely, workspace.id, await getManagedWatch(db.kysely, workspace.id)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'resize_managed_watch',
    destructive: true,
    method: 'PATCH',
    path: '/watch/managed',
    summary: 'Resize (or start) the managed watch',
    description:
      'Sets the capacity: how many in-market accounts the managed watch holds. Starts the managed watch when there is none, and restarts a cancelled one (its health stays `paused` until the next check). Health is derived at the next check.',
    scope: 'write:watch',
    kind: 'write',
    body: z.strictObject({ capacity: z.int().min(1).max(WATCH_MAX_STORES).describe(`1–${WATCH_MAX_STORES}`) }),
    triggers: ['watches'],
    response: ManagedWatch,
    problems: [400, 409],
    async handler({ tx, workspace, body, now }) {
      // Start it, or (one exists, perhaps started by a concurrent call just now) lock and resize it.
      const created = await startManagedWatch(tx, workspace.id, body.capacity, now);
      if (created) return { status: 200, body: await toManaged(tx, workspace.id, created) };
      const w = (await lockManagedWatch(tx, workspace.id))!;
      await updateWatch(tx, w.id, { capacity: body.capacity, status: 'active', ...(w.status === 'cancelled' ? { generation: null } : {}) }, now);
      if (w.status === 'cancelled') await setWatchHealth(tx, w, 'paused', 'Restarted: health is derived at the next check', now);
      return { status: 200, body: await toManaged(tx, workspace.id, await getManagedWatch(tx, workspace.id)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'cancel_managed_watch',
    destructive: true,
    method: 'POST',
    path: '/watch/managed/cancel',
    summary: 'Cancel the managed watch',
    description:
      'Cancels the managed watch: it is no longer checked and its health becomes `paused` (one `watch.health_changed` event). Cancelling a cancelled watch changes nothing. No managed watch ⇒ 404. Resizing restarts it.',
    scope: 'write:watch',
    kind: 'write',
    response: ManagedWatch,
    problems: [400, 404, 409],
    async handler({ tx, workspace, now }) {
      const w = await lockManagedWatch(tx, workspace.id);
      if (!w) throw new ApiProblem('not-found', 'This workspace has no managed watch to cancel.');
      if (w.status !== 'cancelled') {
        await updateWatch(tx, w.id, { status: 'cancelled' }, now);
        await setWatchHealth(tx, w, 'paused', 'Cancelled', now);
      }
      return { status: 200, body: await toManaged(tx, workspace.id, await getManagedWatch(tx, workspace.id)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_watches',
    method: 'GET',
    path: '/watches',
    summary: 'List watches with their health',
    description: "The workspace's watches (the managed one too, once started), oldest first; `type` narrows the list.",
    scope: 'read:watch',
    kind: 'read',
    query: z.strictObject({ ...pageQuery, type: z.enum(WATCH_TYPES).optional().describe('Only watches of this type') }),
    response: page(Watch),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const p = listPager(cursorSecret, workspace.id, { list: 'watches', type: query.type }, query.cursor);
      const rows = await pageWatches(db.kysely, workspace.id, query.type, p.after && { seq: p.after.s, id: p.after.i }, query.limit + 1);
      const body = p.page(rows, query.limit, (w) => ({ s: w.seq, i: w.id }), (w) => w);
      return { status: 200, body: { ...body, data: await Promise.all(body.data.map((w) => toWatch(db.kysely, w))) } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'add_watch',
    method: 'POST',
    path: '/watches',
    summary: 'Add a self-directed or client watch',
    description: `A self-directed watch (stores the workspace picks) or a client watch (a client's name and its stores). Every store must be one of the workspace's accounts: otherwise 404 naming them (\`store_ids\`), and nothing is added. At most ${WATCH_MAX_STORES} stores per watch (422 beyond), and at most ${WATCHES_MAX} self-directed and client watches per workspace (one more ⇒ 422). Health is derived at the next check.`,
    scope: 'write:watch',
    kind: 'write',
    body: AddWatch,
    triggers: ['watches'],
    response: Watch,
    location: '/watches/{id}',
    status: 201,
    problems: [400, 404, 409, 422],
    async handler({ tx, workspace, body, now }) {
      const ids = await requireVisible(tx, workspace.id, body.store_ids);
      const existing = await lockedWatchCount(tx, workspace.id);
      if (existing >= WATCHES_MAX) {
        throw new ApiProblem('unprocessable', `A workspace has at most ${WATCHES_MAX} self-directed and client watches; this one has ${existing}. Remove one, or add the stores to an existing watch.`);
      }
      const w = await insertWatch(tx, { workspace_id: workspace.id, type: body.type, client_name: body.client_name ?? null, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, now);
      await addWatchStores(tx, w.id, ids, now);
      return { status: 201, body: await toWatch(tx, w) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'get_watch',
    method: 'GET',
    path: '/watches/{id}',
    summary: 'Read one watch',
    scope: 'read:watch',
    kind: 'read',
    params: watchParam,
    response: Watch,
    problems: [404],
    async handler({ db, workspace, params }) {
      return { status: 200, body: await toWatch(db.kysely, await findWatch(db.kysely, workspace.id, params.id)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'remove_watch',
    method: 'DELETE',
    path: '/watches/{id}',
    summary: 'Remove a self-directed or client watch',
    description: 'Removes the watch with its stores, events and receipts. The managed watch is cancelled, not removed (409).',
    scope: 'write:watch',
    kind: 'write',
    params: watchParam,
    response: Deleted('watch'),
    problems: [400, 404, 409],
    async handler({ tx, workspace, params }) {
      const w = await lockedWatch(tx, workspace.id, params.id);
      notManaged(w, 'removing a watch');
      await deleteWatch(tx, w.id);
      return { status: 200, body: { id: w.id, object: 'watch' as const, deleted: true as const } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_watch_stores',
    path: '/watches/{id}/stores',
    summary: "List a watch's stores",
    description:
      "A self-directed or client watch's stores by store id; the managed watch's in ranking order (best score first, up to its capacity). A cursor of the managed watch's stores walks the ranking it was issued in: once the accounts, their ranking or the capacity changed, it answers 400 invalid-cursor (start again without one).",
    ...watchList,
    response: page(WatchStore),
    async handler({ db, workspace, params, query, cursorSecret }) {
      const w = await findWatch(db.kysely, workspace.id, params.id);
      // The managed watch's stores are places in the ranking: a cursor holds for the ranking it was issued in.
      const ranking = w.type === 'managed' ? { accounts: workspace.accounts_version, ranking: workspace.ranking_version, capacity: w.capacity } : {};
      const p = listPager(cursorSecret, workspace.id, { list: 'watch_stores', watch: w.id, ...ranking }, query.cursor);
      const a = p.after;
      if (w.type === 'managed') {
        const all = await inMarketStoreIds(db.kysely, workspace.id, w.capacity ?? 0);
        const from = a ? a.s : 0;
        const rows = all.slice(from, from + query.limit + 1).map((id, k) => ({ id, k: from + k + 1 }));
        return { status: 200, body: p.page(rows, query.limit, (r) => ({ s: r.k, i: r.id }), (r) => ({ object: 'watch_store' as const, store_id: r.id, added_at: null })) };
      }
      const rows = await db.kysely
        .selectFrom('watch_stores')
        .select(['store_id', 'added_at'])
        .where('watch_id', '=', w.id)
        .$if(a !== undefined, (qb) => qb.where('store_id', '>', a!.i))
        .orderBy('store_id')
        .limit(query.limit + 1)
        .execute();
      return { status: 200, body: p.page(rows, query.limit, (r) => ({ s: 0, i: r.store_id }), (r) => ({ object: 'watch_store' as const, store_id: r.store_id, added_at: r.added_at })) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'add_watch_stores',
    method: 'POST',
    path: '/watches/{id}/stores',
    summary: 'Add stores to a self-directed or client watch',
    description: `Stores already in the watch stay as they are. Every store must be one of the workspace's accounts: otherwise 404 naming them (\`store_ids\`), and nothing is added. At most ${WATCH_MAX_STORES} stores per watch (422 beyond). The managed watch's stores follow the ranking (409).`,
    ...storesChange,
    params: watchParam,
    body: z.strictObject({ store_ids: storeIds.min(1).describe(`Stores to add (1–${WATCH_ADD_MAX} per call)`) }),
    problems: [400, 404, 409, 422],
    async handler({ tx, workspace, params, body, now }) {
      const w = await lockedWatch(tx, workspace.id, params.id);
      notManaged(w, 'adding stores');
      const ids = await requireVisible(tx, workspace.id, body.store_ids);
      await requireRoom(tx, w, ids);
      await addWatchStores(tx, w.id, ids, now);
      return { status: 200, body: await changedWatch(tx, w, now) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'remove_watch_store',
    method: 'DELETE',
    path: '/watches/{id}/stores/{store_id}',
    summary: 'Remove a store from a self-directed or client watch',
    description: "A store the watch does not hold ⇒ 404. The managed watch's stores follow the ranking (409).",
    ...storesChange,
    params: storeParam,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now }) {
      const w = await lockedWatch(tx, workspace.id, params.id);
      notManaged(w, 'removing stores');
      if (!(await removeWatchStore(tx, w.id, params.store_id))) throw new ApiProblem('not-found', `The watch does not hold store ${JSON.stringify(params.store_id)}.`);
      return { status: 200, body: await changedWatch(tx, w, now) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_watch_events',
    path: '/watches/{id}/events',
    summary: "List a watch's events",
    description: 'What each check found, per store and month (signals, sharp revenue falls, absences) and for the watch as a whole (staleness, capacity, health changes): newest month first.',
    ...watchList,
    response: page(WatchEvent),
    async handler({ db, workspace, params, query, cursorSecret }) {
      const { w, p } = await watchPage(db.kysely, workspace.id, params.id, 'watch_events', cursorSecret, query.cursor);
      const rows = await pageWatchEvents(db.kysely, w.id, p.after && { month: monthText(p.after.s), id: p.after.i }, query.limit + 1);
      return { status: 200, body: p.page(rows, query.limit, (e) => ({ s: monthNumber(e.month), i: e.id }), toEvent) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_watch_receipts',
    path: '/watches/{id}/receipts',
    summary: "List a watch's receipts",
    description: 'Proof of each check, newest first: the month and run it read, the stores it checked and the health it found.',
    ...watchList,
    response: page(WatchReceipt),
    async handler({ db, workspace, params, query, cursorSecret }) {
      const { w, p } = await watchPage(db.kysely, workspace.id, params.id, 'watch_receipts', cursorSecret, query.cursor);
      const rows = await pageWatchReceipts(db.kysely, w.id, p.after && { seq: p.after.s, id: p.after.i }, query.limit + 1);
      const toReceipt = (r: (typeof rows)[number]): z.output<typeof WatchReceipt> => {
        const ids = JSON.parse(r.store_ids) as string[];
        return { object: 'watch_receipt', id: r.id, watch_id: r.watch_id, month: r.month, run_id: r.run_id, stores_checked: ids.length, store_ids: ids, health: r.health, health_reason: r.health_reason, checked_at: r.checked_at };
      };
      return { status: 200, body: p.page(rows, query.limit, (r) => ({ s: r.seq, i: r.id }), toReceipt) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'get_watch_brief',
    method: 'GET',
    path: '/watches/{id}/brief',
    summary: "Read a watch's brief",
    description:
      "A plain-words summary of the latest checked month: the changes in the watched stores and the watch's findings that held at its latest check (one that stopped holding is left out; the events keep it). JSON by default; markdown with `format=markdown`.",
    scope: 'read:watch',
    kind: 'read',
    params: watchParam,
    query: z.strictObject({ format: z.enum(['json', 'markdown']).optional().describe('`json` (default) or `markdown`') }),
    response: WatchBrief,
    alternateContent: { 'text/markdown': 'The brief as markdown (format=markdown or Accept: text/markdown)' },
    problems: [400, 404],
    async handler({ db, workspace, params, query, headers }) {
      const w = await findWatch(db.kysely, workspace.id, params.id);
      const [receipt] = await pageWatchReceipts(db.kysely, w.id, undefined, 1);
      const changes = receipt ? await heldFindingEvents(db.kysely, w.id, receipt.month) : [];
      const brief = buildBrief({
        watch: w,
        receipt: receipt && { month: receipt.month, run_id: receipt.run_id, store_ids: JSON.parse(receipt.store_ids) as string[] },
        changes: changes.sort(byStore),
      });
      const markdown = query.format === 'markdown' || (query.format === undefined && acceptsMarkdown(headers.accept));
      if (markdown) return { status: 200, body: briefMarkdown(brief), contentType: 'text/markdown; charset=utf-8' };
      return { status: 200, body: brief };
    },
  }),
];
