/**
 * The operation executor: one /api/v1 operation on a plain request, every check in DESIGN's
 * order — 401 → 404 (unavailable, pilot, activation) → 403 → 429 → 400 (Idempotency-Key, then
 * params, query, headers and body) → 409 — then the handler. REST (plugin.ts) is a thin
 * adapter over it; any other transport (MCP tools) runs the very same checks by passing its
 * arguments as params, query and body.
 *
 * Two phases, because a transport that streams bodies should not read one from a caller it
 * has not admitted: admit() (auth, availability, scope, rate limit) and perform() (validation,
 * idempotency, the handler). execute() runs both and answers every failure as a problem.
 */
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import { serverSecret } from '../db/server-secrets.js';
import type { Workspace } from '../workspaces/tables.js';
import { type Authenticated, authenticate } from './auth.js';
import { BODY_LIMIT } from './body.js';
import type { KeyLookup } from './key-cache.js';
import type { Capability, CapabilityLookup } from './capabilities.js';
import { bodyTooLarge, toProblem } from './error-handler.js';
import { GIVEN_TWICE, NAMED_TWICE, repeatedMember } from '../core/json-members.js';
import { fingerprint, type IdempotentResult, idempotencyKeyOf, idempotencyRunner } from './idempotency.js';
import { ApiProblem, type ApiProblemKind, isApiProblem } from './problems.js';
import { DEFAULT_LIMITS, rateLimiter } from './rate-limit.js';
import { checkResult, ResponseMismatch } from './response-check.js';
import { type AnyRoute, type CallKind, type OperationResult, isMutating, withDeclaredHeaders } from './route-def.js';
import type { TaskName } from './tasks.js';
import { scopeRefusal } from './scopes.js';
import { ifMatchCondition } from './schemas.js';
import { type OutboundRuntime, outboundRuntime } from '../outbound/runtime.js';
import { UNSTORABLE, unstorable } from '../core/storable-text.js';
import { OUTSIDE_INPUT } from '../core/missing-input.js';

/** A call of one operation, independent of the transport. */
export interface OperationRequest {
  /** Path parameters by name. */
  params: Record<string, unknown>;
  /** Query parameters by name; a repeated one arrives as an array (and is refused). */
  query: Record<string, unknown>;
  /** Request headers, lower-case names (Authorization, Idempotency-Key, If-Match, …). */
  headers: Record<string, string | string[] | undefined>;
  /** The request body as JSON text; undefined when none was sent. */
  rawBody?: string;
  /**
   * What, besides the operation and workspace, decides a read's answer: the transport's
   * request target (REST: the URL). Cacheable reads are reused per target.
   */
  target: string;
  /**
   * Set when the Idempotency-Key is not the caller's but derived by the transport from the call
   * (an MCP tool call without `idempotency_key`): the key used is the one of the call's 24-hour
   * window (IdempotencyRunner.windowKey), so an identical call made later is a call of its own.
   */
  idempotencyKeyDerived?: true;
  /**
   * Arguments the transport could not carry into the request (an MCP tool's `idempotency_key`
   * that is not text): refused as REST refuses an unusable Idempotency-Key, first of the 400s.
   */
  malformed?: { path: string; message: string }[];
  /**
   * The path (`note`, `steps.1.day`) of a body member the transport was sent twice, which its own
   * parse of the message dropped (an MCP tool's arguments: the SDK keeps the last): refused as
   * REST refuses a body naming a member twice.
   */
  repeatedMember?: string;
  /** Set when the answer's body is not sent (HEAD): HandlerContext.delivers is false, and the answer is not kept in the read cache. */
  bodyless?: true;
}

/** What a transport writes back. */
export interface OperationResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text (a problem+json document when problem is set), or text of `contentType`. */
  body: string;
  problem?: boolean;
  /** Set when the body is not JSON (OperationResult.contentType). */
  contentType?: string;
  /**
   * A cacheable read: the body gzipped, for a caller that accepts gzip (the read cache keeps a page
   * only so; `body` is then unzipped when read). Pages of 50 accounts are some 20 KiB of JSON and a
   * tenth of that gzipped.
   */
  gzipped?: () => Buffer;
}

/** A caller that passed 401 → 404 → 403 → 429, with the headers every later answer carries. */
export interface Admission {
  auth: Authenticated;
  headers: Record<string, string>;
}

export interface ExecutorOptions {
  db: Db;
  now: () => Date;
  capability: CapabilityLookup;
  /** Per-minute limits by call kind; default read 120, write 20, report 5. */
  rateLimits?: Partial<Record<CallKind, number>>;
  /**
   * Told after a mutating operation committed (not on a replay), with the background tasks its
   * route declares (`triggers`, none: []): work that follows a write (re-ranking after an
   * outcome) starts here, off the request path.
   */
  onWrite?: (triggers: readonly TaskName[], workspaceId: string) => void;
  /**
   * Check every JSON success body against its route's `response` schema (response-check.ts): a
   * mismatch is answered 500 and reported to `log`. On in tests; `STORELENS_VALIDATE_RESPONSES=1`
   * turns it on for a server in development. Off by default (it parses every answer again).
   */
  validateResponses?: boolean;
  /**
   * The largest body an operation takes (default BODY_LIMIT): REST bodies are held to it as they
   * are read; a body built from an MCP tool's arguments is checked here, as the same 413.
   */
  bodyLimit?: number;
  /** Where a response mismatch is reported (default: console.error). */
  log?: (line: string) => void;
  /** Told of every error execute() answers with a 5xx (whose body never carries internals). */
  onError?: (err: unknown) => void;
  /** The handlers' secret box and SSRF settings (default: the database's key, no local URLs, system DNS). */
  outbound?: OutboundRuntime;
  /**
   * Who the Authorization header names (default: an API key, auth.ts). The assistant connector
   * passes one that also accepts OAuth access tokens, whose grants it derives at the call.
   */
  authenticate?: (authorization: string | string[] | undefined, now: Date) => Promise<Authenticated>;
  /** How the default authentication finds a key by its hash (default: in the database; key-cache.ts remembers them). */
  findKey?: KeyLookup;
}

export interface OperationExecutor {
  /**
   * 401 → 404 → 403 → 429; throws the ApiProblem of the first check that fails. A transport that
   * authenticated the caller for this very request already (MCP) passes it as `auth`.
   */
  admit(route: AnyRoute, headers: OperationRequest['headers'], auth?: Authenticated): Promise<Admission>;
  /** Who the Authorization header names (the 401 check of admit alone). */
  authenticate(authorization: string | string[] | undefined): Promise<Authenticated>;
  /** Whether admit() would let this caller past 404 and 403 (availability and scope; nothing counted). */
  permits(route: AnyRoute, auth: Authenticated): boolean;
  /**
   * 400 → 409 → handler for an admitted caller. Throws the ApiProblem of a failed check (and a
   * read handler's); a mutating handler's problem is stored for replay and answered.
   */
  perform(route: AnyRoute, request: OperationRequest, admission: Admission): Promise<OperationResponse>;
  /** admit() then perform(); never throws: every failure is a problem response. */
  execute(route: AnyRoute, request: OperationRequest, auth?: Authenticated): Promise<OperationResponse>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

const EMPTY = z.strictObject({});
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_TRIGGERS: readonly TaskName[] = Object.freeze([]);
const REPLAYED: Record<string, string> = Object.freeze({ 'idempotent-replayed': 'true' }) as Record<string, string>;

/**
 * Bytes of the read cache: cacheable reads (see OperationResult.cacheable) kept gzipped, by
 * operation, workspace and target, each weighing readCacheWeight; the least recently used out first.
 */
export const READ_CACHE_BYTES = 16 * 1024 * 1024;
/** What a cached read weighs against READ_CACHE_BYTES: its gzipped bytes, its key and its entry's own. */
export const readCacheWeight = (key: string, gzippedBytes: number): number => gzippedBytes + 2 * key.length + 100;

export async function createExecutor(opts: ExecutorOptions): Promise<OperationExecutor> {
  const { db, now, capability, bodyLimit = BODY_LIMIT } = opts;
  const limiter = rateLimiter(db, now, { ...DEFAULT_LIMITS, ...opts.rateLimits });
  const idempotency = idempotencyRunner(db, now);
  const cursorSecret = await serverSecret(db.kysely, 'cursor_secret', () => randomBytes(32).toString('hex'));
  const reads = new LRUCache<string, CachedRead>({ maxSize: READ_CACHE_BYTES, sizeCalculation: (e, key) => readCacheWeight(key, e.gzipped.length) });
  /** Cacheable reads being computed, by data versions and cache key. */
  const inflight = new Map<string, Promise<CachedRead | undefined>>();
  const outbound = opts.outbound ?? (await outboundRuntime(db.kysely));

  const authenticateCaller = opts.authenticate ?? ((authorization, at) => authenticate(db, authorization, at, opts.findKey));
  const log = opts.log ?? ((line: string) => console.error(line));
  /** The handler's result, checked against the route's schema when responses are validated. */
  const checked = opts.validateResponses
    ? <R extends OperationResult>(route: AnyRoute, result: R): R => {
        try {
          return checkResult(route, result);
        } catch (e) {
          if (e instanceof ResponseMismatch) log(e.message);
          throw e;
        }
      }
    : <R extends OperationResult>(_route: AnyRoute, result: R): R => result;
  /** The handler's result, checked, with the headers its route declares (kept with it for replays). */
  const answered = <R extends OperationResult>(route: AnyRoute, result: R): R => withDeclaredHeaders(route, checked(route, result));

  const admit = async (route: AnyRoute, headers: OperationRequest['headers'], known?: Authenticated): Promise<Admission> => {
    const at = now();
    const auth = known ?? (await authenticateCaller(headers.authorization, at));
    checkAvailability(route, capability(route), auth.workspace);
    const refusal = refusalOf(route, auth);
    if (refusal) throw new ApiProblem('insufficient-scope', refusal, {}, { required_scope: route.scope });
    const decision = await limiter.hit(rateBucketOf(auth), route.kind, auth.touchDue ? at : undefined);
    return { auth, headers: decision.headers };
  };

  const perform = async (route: AnyRoute, req: OperationRequest, { auth }: Admission): Promise<OperationResponse> => {
    // A read answered before in this workspace at the same data versions: the same body again.
    // Never for a request the transport could not carry as sent (malformed): it is refused below.
    const cacheKey = isMutating(route) || route.headers || req.malformed ? undefined : `${route.operationId} ${auth.workspace.id} ${req.target}`;
    const stamp = `${auth.workspace.accounts_version}:${auth.workspace.ranking_version}`;
    const flightKey = cacheKey === undefined ? undefined : `${stamp} ${cacheKey}`;
    if (cacheKey !== undefined) {
      const hit = reads.get(cacheKey);
      if (hit && hit.stamp === stamp) return served(hit);
      // The same read already running (e.g. every client asking for the first page right after a
      // re-ranking): wait for its answer rather than compute it again.
      const running = inflight.get(flightKey!);
      if (running) {
        const entry = await running;
        if (entry) return served(entry);
      }
    }
    // REST reads a body within the limit before anything else is checked; one built from an MCP
    // tool's arguments is held to it here, at the same point.
    if (req.rawBody !== undefined && Buffer.byteLength(req.rawBody) > bodyLimit) throw bodyTooLarge(bodyLimit);
    if (req.malformed?.length) throw new ApiProblem('invalid-parameters', req.malformed.map((e) => `${e.path}: ${e.message}`).join('; '), {}, { errors: req.malformed });
    const given = isMutating(route) ? idempotencyKeyOf(req.headers['idempotency-key']) : undefined;
    const idemKey = given !== undefined && req.idempotencyKeyDerived ? await idempotency.windowKey(auth.workspace.id, given) : given;
    const params = validate(route.params, storableValues(req.params), 'invalid-parameters');
    const query = validate(route.query ?? EMPTY, storableValues(singleValued(req.query, route.query ?? EMPTY)), 'invalid-parameters');
    if (route.headers) validate(route.headers, req.headers, 'invalid-parameters');
    if (isMutating(route)) refuseUnevaluableIfMatch(route, req.headers['if-match']);
    const input = route.body ? jsonBody(req.rawBody, req.repeatedMember) : undefined;
    const body = validate(route.body, input, 'invalid-body');
    const { handler, plan } = route;
    if (!handler && !(plan && idemKey !== undefined)) throw new ApiProblem('operation-unavailable', `${route.operationId} is not available yet.`);
    // A handler naming the key (a charge's cause) sees the one used.
    const sentHeaders = idemKey === given ? req.headers : { ...req.headers, 'idempotency-key': idemKey };
    const ctx = { db, tx: db.kysely, now: now(), workspace: auth.workspace, key: auth.key, params, query, body, headers: sentHeaders, cursorSecret, outbound, delivers: req.bodyless !== true };
    if (idemKey === undefined) {
      if (!handler) throw new Error(`${route.operationId}: a read has a handler, not a plan`);
      let settle: (entry: CachedRead | undefined) => void = () => {};
      const leads = flightKey !== undefined && !inflight.has(flightKey);
      if (leads) inflight.set(flightKey, new Promise((resolve) => (settle = resolve)));
      try {
        const result = answered(route, await handler(route.prepare ? { ...ctx, prepared: await route.prepare(ctx) } : ctx));
        const headers = result.headers ?? NO_HEADERS;
        if (result.contentType !== undefined) return { status: result.status, headers, body: String(result.body), contentType: result.contentType };
        const json = JSON.stringify(result.body);
        if (cacheKey !== undefined && result.cacheable && ctx.delivers && result.status === 200) {
          const entry: CachedRead = { stamp, gzipped: gzipSync(json) };
          reads.set(cacheKey, entry);
          settle(entry);
          return { status: 200, headers, body: json, gzipped: () => entry.gzipped };
        }
        return { status: result.status, headers, body: json };
      } finally {
        // Waiters of an answer that is not to be shared (or of a failure) compute their own.
        settle(undefined);
        if (leads) inflight.delete(flightKey);
      }
    }
    const fp = fingerprint(route.method, route.path, req.params as Record<string, string>, input, ifMatchCondition(req.headers['if-match']));
    // A derived key (an MCP call that gave none) replays changes only: a refused call changed
    // nothing, and the identical call made again once its cause is gone (funds credited, the
    // store now an account) runs rather than answering the first refusal for 24 hours.
    const forgetProblems = req.idempotencyKeyDerived === true;
    let result: IdempotentResult;
    if (plan) {
      // A mismatch throws before anything is written, and nothing is stored for replay.
      result = await idempotency.runPlanned(auth.workspace.id, idemKey, fp, async () => {
        const p = await plan(ctx);
        return { ...p, result: answered(route, p.result) };
      }, forgetProblems);
    } else {
      const prepared = route.prepare ? await route.prepare(ctx) : undefined;
      // A mismatch throws inside the transaction: the write rolls back and nothing is stored for replay.
      result = await idempotency.run(auth.workspace.id, idemKey, fp, async (tx) => answered(route, await handler!({ ...ctx, tx, prepared })), forgetProblems);
    }
    if (!result.replayed && result.status < 300) opts.onWrite?.(route.triggers ?? NO_TRIGGERS, auth.workspace.id);
    const headers = result.replayed ? (result.headers ? { ...result.headers, ...REPLAYED } : REPLAYED) : (result.headers ?? NO_HEADERS);
    return { status: result.status, headers, body: JSON.stringify(result.body), problem: result.problem };
  };

  return {
    admit,
    perform,
    authenticate: (authorization) => authenticateCaller(authorization, now()),
    permits(route, auth) {
      try {
        checkAvailability(route, capability(route), auth.workspace);
      } catch {
        return false;
      }
      return refusalOf(route, auth) === undefined;
    },
    async execute(route, req, auth) {
      let admitted: Record<string, string> = NO_HEADERS;
      try {
        const admission = await admit(route, req.headers, auth);
        admitted = admission.headers;
        const r = await perform(route, req, admission);
        return { ...r, headers: { ...admitted, ...r.headers } };
      } catch (e) {
        const p = toProblem(e, bodyLimit);
        if (p.status >= 500) opts.onError?.(e);
        return { status: p.status, headers: { ...admitted, ...p.headers }, body: JSON.stringify(p.body()), problem: true };
      }
    },
  };
}

/** A cacheable read as kept: gzipped only (a tenth of its JSON), for the data versions it was read at. */
interface CachedRead {
  stamp: string;
  gzipped: Buffer;
}

/** A cached read as an answer: gzipped as kept, its JSON text unzipped only for a caller that reads it (one not accepting gzip, MCP). */
function served(entry: CachedRead): OperationResponse {
  return {
    status: 200,
    headers: NO_HEADERS,
    get body() {
      return gunzipSync(entry.gzipped).toString('utf8');
    },
    gzipped: () => entry.gzipped,
  };
}

/**
 * Whose calls a caller's rate limit counts: an API key's own (a key is one workspace's); a signed-in
 * member's in this workspace only, as one member's assistants in two workspaces are two callers,
 * neither spending (nor, by the RateLimit header, seeing) the other's calls.
 */
const rateBucketOf = (auth: Authenticated): string => (auth.derivedGrants ? `${auth.key.id} ${auth.workspace.id}` : auth.key.id);

/** A key's scopes follow its creator's role (scopes.ts); a signed-in member's grants were derived from the role at this call. */
function refusalOf(route: AnyRoute, auth: Authenticated): string | undefined {
  if (auth.derivedGrants) return auth.key.scopes.includes(route.scope) ? undefined : `This operation needs the scope ${route.scope}, which ${auth.key.created_by}'s role does not grant now.`;
  return scopeRefusal(route.scope, auth.key.scopes, auth.creatorRole, auth.key.created_by);
}

function checkAvailability(route: AnyRoute, cap: Capability, ws: Workspace): void {
  if (cap.availability === 'available') return;
  if (cap.availability === 'unavailable') {
    throw new ApiProblem('operation-unavailable', `${route.operationId} is published for compatibility but unavailable in the current wallet-live state.`);
  }
  if (cap.availability === 'pilot' && ws.pilot_access !== 1) {
    throw new ApiProblem('pilot-required', `${route.operationId} is available only to workspaces with approved pilot access.`);
  }
  if (cap.availability === 'activation-gated') {
    const needed = cap.activation ?? route.activation ?? route.operationId;
    if (!(JSON.parse(ws.activations) as string[]).includes(needed)) {
      throw new ApiProblem('activation-required', `${route.operationId} needs the "${needed}" activation for this workspace.`, {}, { activation: needed });
    }
  }
}

/**
 * A mutating call with `If-Match: <tag>` to an operation whose resource has no version: the
 * condition can never hold (RFC 9110 §13.1.1: a server must not perform a request whose If-Match
 * is false), so it is refused (400) rather than ignored, which would perform the change the caller
 * made conditional. `If-Match: *` (any current version) holds whenever the resource exists.
 */
function refuseUnevaluableIfMatch(route: AnyRoute, ifMatch: string | string[] | undefined): void {
  if (ifMatch === undefined || ifMatch === '*' || (route.headers !== undefined && 'if-match' in route.headers.shape)) return;
  const message = `${route.operationId} changes a resource without a version: it takes no If-Match (only *); send the change without it`;
  throw new ApiProblem('invalid-parameters', `if-match: ${message}`, {}, { errors: [{ path: 'if-match', message }] });
}

/**
 * The query as given, or a 400 naming every parameter of the operation given more than once (an
 * MCP tool's argument given as a list arrives the same way). A name the operation does not take
 * is left to its schema, which refuses it as unknown however often it came: told to send it
 * once, a caller would send it again.
 */
function singleValued(query: Record<string, unknown>, schema: z.ZodType): Record<string, unknown> {
  const declared = schema instanceof z.ZodObject ? schema.shape : {};
  let repeated: string[] | undefined;
  for (const name in query) if (Array.isArray(query[name]) && Object.hasOwn(declared, name)) (repeated ??= []).push(name);
  if (!repeated) return query;
  const errors = repeated.map((path) => ({ path, message: GIVEN_TWICE }));
  throw new ApiProblem('invalid-parameters', errors.map((e) => `${e.path}: ${e.message}`).join('; '), {}, { errors });
}

/** The parameters as given, or a 400 naming every one whose text is unstorable. */
function storableValues(values: Record<string, unknown>): Record<string, unknown> {
  const bad = Object.keys(values).filter((name) => unstorable(name) || (typeof values[name] === 'string' && unstorable(values[name] as string)));
  if (bad.length === 0) return values;
  const errors = bad.map((path) => ({ path, message: UNSTORABLE }));
  throw new ApiProblem('invalid-parameters', errors.map((e) => `${e.path}: ${e.message}`).join('; '), {}, { errors });
}

function validate(schema: z.ZodType | undefined, input: unknown, kind: ApiProblemKind): any {
  if (!schema) return undefined;
  const r = schema.safeParse(input, OUTSIDE_INPUT);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const detail = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  throw new ApiProblem(kind, detail || 'The request is invalid.', {}, { errors: issues });
}

/** The body as JSON; `repeated` is the member the transport found named twice (OperationRequest.repeatedMember). */
function jsonBody(raw: string | undefined, repeated?: string): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ApiProblem('invalid-body', 'This operation needs a JSON body (Content-Type: application/json).');
  }
  // JSON text reaches U+0000 and lone surrogates only through \u escapes: no escape, no check.
  const reviver = raw.includes('\\u') ? refuseUnstorable : undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw, reviver);
  } catch (e) {
    if (isApiProblem(e)) throw e;
    // Notepad and PowerShell 5's files start with one: said, rather than "not valid JSON" of a body that looks valid.
    if (raw.startsWith('\ufeff')) throw new ApiProblem('malformed-json', 'The request body starts with a byte order mark (U+FEFF), which JSON sent over a network does not carry (RFC 8259 §8.1): send it without.');
    throw new ApiProblem('malformed-json', 'The request body is not valid JSON.');
  }
  repeated ??= repeatedMember(raw)?.join('.');
  if (repeated !== undefined) {
    const errors = [{ path: repeated, message: NAMED_TWICE }];
    throw new ApiProblem('invalid-body', `${repeated}: ${errors[0]!.message}`, {}, { errors });
  }
  return value;
}

function refuseUnstorable(this: unknown, key: string, value: unknown): unknown {
  if (unstorable(key) || (typeof value === 'string' && unstorable(value))) {
    const path = unstorable(key) ? 'a member name' : key === '' ? 'the body' : key;
    throw new ApiProblem('invalid-body', `Strings in the body ${UNSTORABLE}: ${path} does.`, {}, { errors: [{ path, message: UNSTORABLE }] });
  }
  return value;
}
