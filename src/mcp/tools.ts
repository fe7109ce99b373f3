/**
 * One MCP tool per /api/v1 operation, derived from its route definition: name = operationId,
 * description from summary and description, input schema from the route's zod schemas (path
 * parameters, query, extra headers and body merged into one object), output schema from its
 * response schema. A call's arguments are
 * split back into the plain OperationRequest the REST adapter would build, so the executor
 * validates them with the very same schemas and answers the same problems.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Authenticated } from '../api/auth.js';
import type { OperationRequest } from '../api/executor.js';
import { IDEMPOTENCY_KEY_MAX } from '../api/idempotency.js';
import { canonicalJson } from '../core/canonical-json.js';
import { GIVEN_TWICE } from '../core/json-members.js';
import { type AnyRoute, isMutating } from '../api/route-def.js';
import { ifMatchCondition, jsonSchema } from '../api/schemas.js';

type Json = Record<string, unknown>;
interface ObjectSchema {
  type: 'object';
  properties: Record<string, Json>;
  required: string[];
  additionalProperties: false;
  description?: string;
}

/** The tool argument carrying the Idempotency-Key of a mutating operation. */
export const IDEMPOTENCY_ARG = 'idempotency_key';

export interface OperationTool {
  route: AnyRoute;
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /**
   * The JSON Schema of the operation's success body (its `response`, as openapi.json documents
   * it): what `structuredContent` holds. None for an operation that can also answer text of
   * another media type (a brief as markdown), which has no structured content.
   */
  outputSchema?: Json;
  /**
   * This call's arguments as the request REST would have built. `caller` (callerOf) scopes the
   * Idempotency-Key derived for a mutating call that gave none. `repeated` is the path of a member
   * the arguments as sent named twice (`['note']`, `['steps', '1', 'day']`), which the parsed
   * `args` no longer show: refused as REST refuses a query parameter or a body member given twice.
   */
  request(args: Record<string, unknown>, caller: string, repeated?: readonly string[]): OperationRequest;
}

function objectSchema(schema: z.ZodType | undefined): { properties: Record<string, Json>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return { properties: js.properties ?? {}, required: js.required ?? [] };
}

/** An HTTP header name as an argument name: `If-Match` ⇒ `if_match`. */
const headerArg = (header: string): string => header.toLowerCase().replace(/-/g, '_');

/**
 * The request headers an operation's text may name (however cased: a problem names a parameter
 * `if-match`), which a tool takes as arguments; with the word "header" after them, which an
 * argument is not.
 */
const HEADER_WORDS = /\b(If-Match|Idempotency-Key)\b(?! (?:header )?of the REST call)(?: header)?/gi;

/**
 * An operation's text (written for REST: openapi.json shows it too) as a tool's: a request header
 * it names is the argument the tool takes for it (`If-Match` ⇒ `if_match`, `Idempotency-Key` ⇒
 * `idempotency_key`), in a description or in every description of a schema. An assistant sets no
 * header; the mapping itself stays said where an argument is described.
 */
const inToolWords = (text: string): string => text.replace(HEADER_WORDS, (_words, header: string) => headerArg(header));

/**
 * A problem answered to a tool call, in the tool's words (inToolWords): its detail and each of
 * its `errors` name the argument the assistant gave (`if_match`, `idempotency_key`) where REST's
 * name the header (`if-match: must be…`, "needs an Idempotency-Key header"), which an assistant
 * can neither set nor find among the tool's arguments. Its `type` and `title` stay those of the
 * problem type.
 */
export function problemInToolWords(problem: Json): Json {
  const words = (v: unknown) => (typeof v === 'string' ? inToolWords(v) : v);
  const errors = Array.isArray(problem.errors) ? { errors: (problem.errors as unknown[]).map((e) => (e && typeof e === 'object' ? { ...e, path: words((e as Json).path), message: words((e as Json).message) } : e)) } : {};
  return { ...problem, detail: words(problem.detail), ...errors };
}

/** A JSON Schema with every description in a tool's words (inToolWords); its other strings as they are. */
function schemaInToolWords<T>(v: T): T {
  if (Array.isArray(v)) return v.map(schemaInToolWords) as T;
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'description' && typeof x === 'string' ? inToolWords(x) : schemaInToolWords(x)])) as T;
}

export function operationTool(route: AnyRoute): OperationTool {
  const params = objectSchema(route.params);
  const query = objectSchema(route.query);
  const headers = objectSchema(route.headers);
  const headerArgs = new Map(Object.keys(headers.properties).map((h) => [headerArg(h), h.toLowerCase()]));
  const properties: Record<string, Json> = { ...params.properties, ...query.properties };
  const required = [...params.required];
  for (const [name, prop] of Object.entries(headers.properties)) {
    properties[headerArg(name)] = { ...prop, description: `${String(prop.description ?? '')} (the ${name} header of the REST call)`.trim() };
    if (headers.required.includes(name)) required.push(headerArg(name));
  }
  const mutating = isMutating(route);
  if (mutating) {
    properties[IDEMPOTENCY_ARG] = {
      type: 'string',
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      description:
        'A stable id of this logical request (the Idempotency-Key of the REST call): a retry with the same id and input replays the first answer. Left out, the id is derived from the operation, its arguments and the caller (this API key, or this member through this assistant), so an identical call by the same caller within 24 hours of one that succeeded is a replay (a refused call is not remembered: made again, it runs); another caller\'s identical call is a change of its own.',
    };
  }
  // A body object's fields sit beside the parameters unless a name is taken; then under `body`.
  let nestedBody = false;
  if (route.body) {
    const js = jsonSchema(route.body, 'input') as Json & { type?: string; properties?: Record<string, Json>; required?: string[] };
    const fields = js.type === 'object' && js.properties ? js.properties : undefined;
    if (fields && !Object.keys(fields).some((n) => n in properties)) {
      Object.assign(properties, fields);
      required.push(...(js.required ?? []));
    } else {
      properties.body = { ...js, description: 'The JSON body of the REST call' };
      required.push('body');
      nestedBody = true;
    }
  }
  const paramNames = new Set(Object.keys(params.properties));
  const queryNames = new Set(Object.keys(query.properties));
  /**
   * Where an argument goes in the request REST would have built. A body field, or a name no schema
   * declares, goes to the body, whose strict schema refuses it (400); without a body such a name is
   * an unknown query parameter, as in a REST URL.
   */
  const placeOf = (name: string): 'params' | 'query' | 'header' | 'idempotency' | 'nested body' | 'body' | 'unknown' =>
    paramNames.has(name) ? 'params'
    : queryNames.has(name) ? 'query'
    : headerArgs.has(name) ? 'header'
    : mutating && name === IDEMPOTENCY_ARG ? 'idempotency'
    : nestedBody && name === 'body' ? 'nested body'
    : route.body && !nestedBody ? 'body'
    : 'unknown';
  const parts = [route.summary, route.description && inToolWords(route.description), `REST: ${route.method} /api/v1${route.path} (scope ${route.scope}).`];

  return {
    route,
    name: route.operationId,
    title: route.summary,
    description: parts.filter(Boolean).join('\n\n'),
    inputSchema: { type: 'object', properties: schemaInToolWords(properties), required: [...new Set(required)], additionalProperties: false },
    outputSchema: route.alternateContent ? undefined : jsonSchema(route.response, 'output'),
    request(args, caller, repeated) {
      const p: Record<string, unknown> = {};
      const q: Record<string, unknown> = {};
      const h: Record<string, string> = {};
      const body: Record<string, unknown> = {};
      let idem: unknown;
      for (const [name, value] of Object.entries(args)) {
        if (value === undefined) continue;
        const to = placeOf(name);
        if (to === 'params') put(p, name, scalarText(value));
        else if (to === 'query') put(q, name, scalarText(value));
        else if (to === 'header') h[headerArgs.get(name)!] = String(scalarText(value));
        else if (to === 'idempotency') idem = typeof value === 'number' ? String(value) : value;
        else if (to === 'nested body') Object.assign(body, { [BODY]: value });
        else if (to === 'body') put(body, name, value);
        else put(q, name, scalarText(value));
      }
      const malformed: { path: string; message: string }[] = [];
      // A number is written as REST would send it in a header; any other non-text is no key, and
      // is refused (400) rather than replaced by a derived key.
      if (idem !== undefined && typeof idem !== 'string') malformed.push({ path: IDEMPOTENCY_ARG, message: `must be text (got ${describeJson(idem)}); leave it out to have one derived from the call` });
      // An argument named twice: REST's words for a query parameter given twice, or for a body
      // member named twice. A name no schema declares is refused as unknown however often it came,
      // as in a REST URL; a member inside a parameter's value leaves the value of the wrong type.
      let repeatedMember: string | undefined;
      if (repeated?.length) {
        const [name, ...inside] = repeated as [string, ...string[]];
        const to = placeOf(name);
        if (to === 'body') repeatedMember = repeated.join('.');
        else if (to === 'nested body' && inside.length > 0) repeatedMember = inside.join('.');
        else if (to !== 'unknown' && inside.length === 0) malformed.push({ path: name, message: GIVEN_TWICE });
      }
      const derived = mutating && typeof idem !== 'string';
      // The If-Match condition as the fingerprint reads it: `if_match` 3 and "3" are one call.
      const keyed = 'if-match' in h ? { ...args, [headerArg('If-Match')]: ifMatchCondition(h['if-match']) } : args;
      if (mutating) h['idempotency-key'] = derived ? derivedKey(route.operationId, keyed, caller) : (idem as string);
      const sent = nestedBody ? body[BODY] : body;
      return {
        params: p,
        query: q,
        headers: h,
        rawBody: route.body && sent !== undefined ? JSON.stringify(sent) : undefined,
        target: `mcp:${route.operationId}?${canonicalJson({ ...p, ...q })}`,
        // Kept under the key of the first such call's 24-hour window (executor: windowKey).
        ...(derived ? { idempotencyKeyDerived: true as const } : {}),
        ...(malformed.length ? { malformed } : {}),
        ...(repeatedMember !== undefined ? { repeatedMember } : {}),
      };
    },
  };
}

const BODY = Symbol('body') as unknown as string;

/**
 * Sets a member of its own, whatever its name: `o[name] = v` with the name `__proto__` would set
 * the object's prototype instead, and the argument would vanish from the request rather than be
 * refused as undeclared.
 */
function put(o: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
}

/** What kind of JSON value an argument is, as an assistant would say it. */
const describeJson = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** A path or query value as REST receives it: text (numbers and booleans as written in a URL). */
function scalarText(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
}

/**
 * The Idempotency-Key of a call that gave none: the caller, the operation and its arguments,
 * hashed. Keys are kept per workspace, so without the caller two members (or two keys) making
 * the same change would get one change, the second silently replayed.
 */
export function derivedKey(operationId: string, args: Record<string, unknown>, caller: string): string {
  return `mcp-${createHash('sha256').update(`${caller}\n${operationId}\n${canonicalJson(args)}`).digest('hex').slice(0, 48)}`;
}

/**
 * Who a derived Idempotency-Key belongs to: the API key, or the member signed in through the
 * assistant connector together with the assistant (OAuth client) they call through.
 */
export function callerOf(auth: Authenticated): string {
  return auth.derivedGrants ? `member ${auth.key.workspace_id} ${auth.key.created_by} via ${auth.client}` : `key ${auth.key.id}`;
}



let cache: Map<readonly AnyRoute[], OperationTool[]> | undefined;
/** The tools of a route table, built once per table. */
export function operationTools(routes: readonly AnyRoute[]): OperationTool[] {
  cache ??= new Map();
  let tools = cache.get(routes);
  if (!tools) cache.set(routes, (tools = routes.map(operationTool)));
  return tools;
}
