/** A real api server on a free port over a fresh database, with an injected clock. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type BuildApiAppOptions, buildApiApp } from '../../src/compose/api-app.js';
import type { ApiOptions } from '../../src/api/plugin.js';
import { generateApiKey } from '../../src/api/keys.js';
import type { Scope } from '../../src/api/scopes.js';
import { insertApiKey } from '../../src/api/keys-store.js';
import type { Db } from '../../src/compose/database.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { upsertMember } from '../../src/members/store.js';
import { capabilityManifest, type Operations } from './capability-manifest.js';
import { type DialectName, freshDb, type TestDb } from './db.js';

export interface Clock {
  now: () => Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export function fakeClock(start = '2026-01-15T10:00:00.000Z'): Clock {
  let t = Date.parse(start);
  return { now: () => new Date(t), set: (iso) => (t = Date.parse(iso)), advance: (ms) => (t += ms) };
}

export interface Harness {
  t: TestDb;
  db: Db;
  app: FastifyInstance;
  base: string;
  clock: Clock;
  close(): Promise<void>;
}

/** Every JSON success body is checked against its route's response schema unless `validateResponses: false`. */
export interface StartApiOptions extends Omit<ApiOptions, 'db' | 'now' | 'routes'>, Pick<BuildApiAppOptions, 'oauth' | 'trustedProxies'> {
  poolSize?: number;
  /** The operations the test calls and their availability: written as the server's capability manifest (removed on close). */
  operations?: Operations;
}

export async function startApi(dialect: DialectName, opts: StartApiOptions = {}): Promise<Harness> {
  const { poolSize, operations, ...apiOpts } = opts;
  const caps = operations && capabilityManifest(operations);
  try {
    const t = await freshDb(dialect, { poolSize });
    const clock = fakeClock();
    const app = await buildApiApp({ db: t.db, now: clock.now, validateResponses: true, ...(caps && { capabilitiesPath: caps.path }), ...apiOpts });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      t,
      db: t.db,
      app,
      base: `http://127.0.0.1:${port}/api/v1`,
      clock,
      close: async () => {
        await app.close();
        await t.cleanup();
        caps?.remove();
      },
    };
  } catch (e) {
    caps?.remove();
    throw e;
  }
}

let wsCounter = 0;
export async function workspace(db: Db, name = `ws-${++wsCounter}-${Math.random().toString(36).slice(2, 8)}`): Promise<Workspace> {
  const ws = await createWorkspace(db.kysely, name, new Date());
  await upsertMember(db.kysely, ws.id, 'owner@example.com', 'owner', new Date());
  return ws;
}

export async function apiKey(db: Db, workspaceId: string, scopes: readonly Scope[]): Promise<string> {
  const k = generateApiKey();
  await insertApiKey(db.kysely, {
    id: k.id,
    workspace_id: workspaceId,
    name: 'test',
    prefix: k.prefix,
    hash: k.hash,
    scopes,
    created_by: 'owner@example.com',
    created_at: new Date().toISOString(),
  });
  return k.key;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  idem?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  contentType: string;
}

let idemCounter = 0;
export const freshIdem = (): string => `idem-${Date.now()}-${++idemCounter}-${Math.random().toString(36).slice(2)}`;

export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.idem !== undefined) headers['idempotency-key'] = o.idem;
  let body: string | undefined;
  if (o.rawBody !== undefined) body = o.rawBody;
  else if (o.body !== undefined) body = JSON.stringify(o.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (contentType.includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, contentType };
}
