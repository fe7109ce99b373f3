/**
 * One API operation, declared once: the router, auth, availability, scope, rate limit,
 * idempotency, validation and openapi.json all read this.
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/index.js';
import type { ApiKeyInfo } from '../db/api-keys.js';
import type { Database, Workspace } from '../db/schema.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import type { Availability } from './capabilities.js';
import type { Scope } from './scopes.js';

export type CallKind = 'read' | 'write' | 'report';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HandlerContext<P, Q, B> {
  db: Db;
  /** The transaction of a mutating call (the idempotency record commits with it); db.kysely for reads. */
  tx: Kysely<Database>;
  now: Date;
  workspace: Workspace;
  key: ApiKeyInfo;
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
  /** Signs and checks pagination cursors. */
  cursorSecret: string;
  /** Webhook signing secrets' box and the SSRF guard's settings. */
  webhooks: WebhookRuntime;
  /** What the route's prepare() answered (undefined without one). */
  prepared?: unknown;
}

/** What a handler answers when it succeeds (failures are thrown: see defineRoute). */
export interface OperationResult {
  status: number;
  body: unknown;
  /**
   * A read whose body depends only on the workspace's data versions (accounts_version,
   * ranking_version) and the request target, and whose side effects are done: the executor may
   * answer the same target in the same workspace with this body until a version moves.
   */
  cacheable?: boolean;
  /**
   * The body is this media type's text (a string sent as it is), not JSON: e.g. a watch brief
   * as `text/markdown; charset=utf-8`. Only for reads (a mutating answer is always JSON).
   */
  contentType?: string;
  /**
   * What the Idempotency-Key record keeps and a replay answers, when it must differ from body
   * (a secret shown once is never stored in plain text): default body.
   */
  replayBody?: unknown;
  /** Response headers of a success (e.g. `location` of an accepted request); a replay answers them too. */
  headers?: Record<string, string>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDef<P = undefined, Q = undefined, B = undefined> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form, relative to /api/v1: `/webhooks/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  scope: Scope;
  kind: CallKind;
  /**
   * Availability this operation is designed for: what it gets when config/capabilities.json
   * does not list it. An entry in the manifest decides.
   */
  planned: Availability;
  /** Activation a workspace needs when the operation is activation-gated. */
  activation?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers beyond Authorization and Idempotency-Key (e.g. If-Match). */
  headers?: z.ZodObject;
  response: z.ZodType;
  /** Other media types the success response can have (e.g. `text/markdown`), with a description; openapi.json lists them. */
  alternateContent?: Record<string, string>;
  /** Success status (200 unless said). */
  status?: number;
  /** Operation-specific problem statuses beyond those every call can answer. */
  problems?: number[];
  handler?: (ctx: HandlerContext<Out<P>, Out<Q>, Out<B>>) => Promise<OperationResult>;
  /**
   * Slow work a mutating handler needs that must not run inside its transaction (on SQLite every
   * write waits for it): run after validation and before the transaction, its answer reaches the
   * handler as ctx.prepared. It should answer, not throw, what the handler decides on, since a
   * replay never calls the handler (a throw here would answer a replay too).
   */
  prepare?: (ctx: Omit<HandlerContext<Out<P>, Out<Q>, Out<B>>, 'tx' | 'prepared'>) => Promise<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any>;

/**
 * Declares an operation. How a handler fails — one rule for every handler: it **throws an
 * ApiProblem** (404 for an unknown id, 409 for a stale version, 400 for a bad cursor …) and
 * never returns a problem. The executor answers it as problem+json. In a mutating call it also
 * rolls back everything the handler wrote and stores the problem under the Idempotency-Key, so
 * a replay answers the same problem (with `Idempotent-Replayed: true`), exactly as a success
 * is replayed; a 5xx or any other error is not stored, so a retry runs again.
 */
export function defineRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: RouteDef<P, Q, B>,
): AnyRoute {
  return def as AnyRoute;
}

export const isMutating = (r: AnyRoute): boolean => r.method !== 'GET';
