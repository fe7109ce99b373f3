/**
 * One API operation, declared once: the router, auth, availability, scope, rate limit,
 * idempotency, validation and openapi.json all read this.
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import type { ApiKeyInfo } from './keys-store.js';
import type { Database } from '../db/database.js';
import type { Statement, When } from '../db/prepared.js';
import type { Workspace } from '../workspaces/tables.js';
import type { TaskName } from './tasks.js';
import type { Availability } from './capabilities.js';
import type { ApiProblem } from './problems.js';
import { idParam, versionTag } from './schemas.js';
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
  /**
   * Whether the answer's body reaches the caller: false for a HEAD of a read, which answers the
   * GET's status and headers only, so a read that records what it delivers (list_accounts,
   * get_account) records nothing.
   */
  delivers: boolean;
  /** The signing secrets' box and the SSRF guard's settings (outbound/runtime.ts). */
  outbound: OutboundRuntime;
  /** What the route's prepare() answered (undefined without one). */
  prepared?: unknown;
}

interface ResultBase {
  status: number;
  /** Response headers of a success (e.g. `location` of an accepted request); a replay answers them too. */
  headers?: Record<string, string>;
}

/**
 * What a handler answers when it succeeds (failures are thrown: see defineRoute): a JSON body of
 * the route's `response` schema, or text of another media type.
 */
export type OperationResult<Body = unknown> =
  | (ResultBase & {
      body: Body;
      contentType?: undefined;
      /**
       * A read whose body depends only on the workspace's data versions (accounts_version,
       * ranking_version) and the request target, and whose side effects are done: the executor may
       * answer the same target in the same workspace with this body until a version moves.
       */
      cacheable?: boolean;
      /**
       * What the Idempotency-Key record keeps and a replay answers, when it must differ from body
       * (a secret shown once is never stored in plain text): default body.
       */
      replayBody?: Body;
    })
  | (ResultBase & {
      /** This media type's text, sent as it is. */
      body: string;
      /**
       * The body is this media type's text, not JSON: e.g. a watch brief as
       * `text/markdown; charset=utf-8` (one of the route's `alternateContent`). Only for reads (a
       * mutating answer is always JSON).
       */
      contentType: string;
    });

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDef<P = undefined, Q = undefined, B = undefined, R extends z.ZodType = z.ZodType> {
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
  /** The success body: openapi.json documents it, the MCP tool's output schema is it, handlers are typed by it and (validateResponses) every answer is checked against it. */
  response: R;
  /** Other media types the success response can have (e.g. `text/markdown`), with a description; openapi.json lists them. */
  alternateContent?: Record<string, string>;
  /**
   * A POST that replaces or ends a state rather than adding one (a stage move, a status, a
   * cancellation, a new secret): MCP clients are told (destructiveHint) to confirm it first.
   */
  destructive?: true;
  /**
   * The success body is one resource with a `version` (a deal): every success answer carries it
   * as a strong `ETag` (`"3"`, versionTag), which If-Match takes as it is, and a GET answers 304
   * to an If-None-Match naming it. The executor sets the header; openapi.json declares it.
   */
  versioned?: true;
  /**
   * Where the resource a success answer creates (or accepts) is read, relative to /api/v1, with
   * `{id}` for the body's `id` (`/deals/{id}`): the executor sends it as `Location`;
   * openapi.json declares it.
   */
  location?: string;
  /** Success status (200 unless said). */
  status?: number;
  /** Other success statuses the handler may answer with the same body, each with what it means (e.g. 202: awaiting an owner's approval). */
  otherStatuses?: Record<number, string>;
  /** Operation-specific problem statuses beyond those every call can answer. */
  problems?: number[];
  /**
   * Background tasks a committed write of this operation starts at once, off the request path
   * (every write also starts the webhook delivery); the periodic turns catch the rest.
   */
  triggers?: readonly TaskName[];
  handler?: (ctx: HandlerContext<Out<P>, Out<Q>, Out<B>>) => Promise<OperationResult<z.output<R>>>;
  /**
   * Slow work a mutating handler needs that must not run inside its transaction (on SQLite every
   * write waits for it): run after validation and before the transaction, its answer reaches the
   * handler as ctx.prepared. It should answer, not throw, what the handler decides on, since a
   * replay never calls the handler (a throw here would answer a replay too).
   */
  prepare?: (ctx: Omit<HandlerContext<Out<P>, Out<Q>, Out<B>>, 'tx' | 'prepared'>) => Promise<unknown>;
  /**
   * In place of handler, for a mutating operation whose answer is made before it writes (its ids
   * and timestamps made by the process): the answer, and the statements that make it true. The
   * executor runs them with the Idempotency-Key's claim (idempotency.ts): on PostgreSQL the
   * claim, the answer kept for replays and the writes are one statement sent outside any
   * transaction (one round trip, one commit); on SQLite they run in order in the claim's
   * transaction. A throw is a handler's: a problem is stored for replays.
   */
  plan?: (ctx: Omit<HandlerContext<Out<P>, Out<Q>, Out<B>>, 'tx' | 'prepared'>) => Promise<WritePlan<z.output<R>>>;
}

/** What a route's plan answers: a JSON answer, and its writes, built on ctx.db.kysely, each doing its work only `when` holds and reading none of the others' effects. */
export interface WritePlan<Body = unknown> {
  result: ResultBase & { body: Body; replayBody?: Body };
  writes: (when: When) => Statement[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any, any>;

/**
 * Declares an operation. How a handler fails — one rule for every handler: it **throws an
 * ApiProblem** (404 for an unknown id, 409 for a stale version, 400 for a bad cursor …) and
 * never returns a problem. The executor answers it as problem+json. In a mutating call it also
 * rolls back everything the handler wrote and stores the problem under the Idempotency-Key, so
 * a replay answers the same problem (with `Idempotent-Replayed: true`), exactly as a success
 * is replayed; a 5xx or any other error is not stored, so a retry runs again.
 *
 * What it answers is typed by `response` (z.output): another shape fails the typecheck. Build a
 * body with a function typed by its schema (`(r: Row): z.output<typeof Watch> => …`), or mark an
 * inline literal `as const` (`object: 'list' as const`): TypeScript widens literals in the
 * return of a handler whose type it is still inferring.
 */
export function defineRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R extends z.ZodType = z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): AnyRoute {
  return def as AnyRoute;
}

export const isMutating = (r: AnyRoute): boolean => r.method !== 'GET';

/** Where the API is mounted: the base of every `Location` it sends. */
export const API_BASE = '/api/v1';

/**
 * A success answer with the headers its route declares, made from its body: the `ETag` of a
 * versioned resource and the `Location` of a created one (text of another media type has neither).
 */
export function withDeclaredHeaders<R extends OperationResult>(route: AnyRoute, result: R): R {
  if ((!route.versioned && !route.location) || result.contentType !== undefined) return result;
  const body = result.body as { id?: unknown; version?: unknown };
  const headers: Record<string, string> = { ...result.headers };
  if (route.versioned) headers.etag = versionTag(body.version as number);
  if (route.location) headers.location = API_BASE + route.location.replace('{id}', encodeURIComponent(String(body.id)));
  return { ...result, headers };
}

/** What every declaration of an operation names for itself; the factories below fill in the rest. */
export type RouteHead = Pick<RouteDef, 'operationId' | 'path' | 'tag' | 'summary' | 'description' | 'scope' | 'planned' | 'activation'>;

/** A read of one of the workspace's rows by its `{id}`: everything but the row and its answer is the same for each. */
export interface ByIdDef<T, R extends z.ZodType> extends RouteHead, Pick<RouteDef, 'versioned'> {
  /** What the id names (`Identifier of the contact`). */
  what: string;
  response: R;
  find(q: Kysely<Database>, workspaceId: string, id: string): Promise<T | undefined>;
  /** The 404 when the workspace has no such row. */
  missing(id: string): ApiProblem;
  toBody(row: T, q: Kysely<Database>): z.output<R> | Promise<z.output<R>>;
}

/** The GET operation that answers a ByIdDef's row (404 when there is none). */
export function byIdRoute<T, R extends z.ZodType>({ what, find, missing, toBody, ...route }: ByIdDef<T, R>): AnyRoute {
  return defineRoute({
    ...route,
    method: 'GET',
    kind: 'read',
    params: idParam(what),
    problems: [404],
    async handler({ db, workspace, params }) {
      const row = await find(db.kysely, workspace.id, params.id);
      if (!row) throw missing(params.id);
      return { status: 200, body: await toBody(row, db.kysely) };
    },
  });
}
