/**
 * Every JSON example of README.md and docs/ against the schema it illustrates, as a client sees
 * it: openapi.json's schemas validated with ajv configured as the MCP SDK configures it.
 *
 * - HTTP transcripts (`HTTP/1.1 <status>`): the operation is the one the nearest curl above
 *   (same heading) calls; the status must be one it declares, the content type its own, a
 *   success body its response schema, a problem body the Problem schema with its kind's status
 *   and title. A transcript with no curl above shows a status some operation declares.
 * - curl commands to /api/v1: an operation answers the method and path, and (unless the answer
 *   shown is a 4xx) the path, query, headers and `-d` body are what it takes, with an
 *   Idempotency-Key on a mutating call and a JSON Content-Type on a body.
 * - JSON blocks, classified by content (a problem's `type`, an event's `type`, an API object's
 *   `object`, an event payload's members, an account's evidence), checked against that schema.
 *   A block no rule classifies fails, unless NOT_PAYLOADS lists it (and says why).
 * - NDJSON under `storelens accounts import`: the import's own parser takes it.
 * - `$ storelens … --json` transcripts: each JSON line is well-formed.
 *
 * Elisions (`[…]`, `{ … }`, `…,`) are allowed in JSON blocks: what they leave out is not checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { capabilityReader } from '../../src/api/capabilities.js';
import { buildOpenApi } from '../../src/api/openapi.js';
import { DEFAULT_LIMITS } from '../../src/api/rate-limit.js';
import { type AnyRoute, isMutating } from '../../src/api/route-def.js';
import { SCOPES } from '../../src/api/scopes.js';
import { parseAccountsNdjson } from '../../src/commands/admin-accounts.js';
import { IMPORTED_KEY, importedEvidence } from '../../src/accounts/imported.js';
import { keyDetail } from '../../src/accounts/prior.js';
import { documentedWebhooks, ROUTES } from '../../src/compose/modules.js';
import { PROBLEM_BASE, PROBLEM_MEDIA_TYPE, PROBLEM_KINDS } from '../../src/http/problems.js';
import { EVENT_TYPES } from '../../src/compose/events.js';
import { type CodeBlock, type Curl, ELIDED, at, codeBlocks, curls, transcript, withElisions } from '../helpers/doc-examples.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const BLOCKS = FILES.flatMap((f) => codeBlocks(f, readFileSync(path.join(ROOT, f), 'utf8')));

/**
 * JSON blocks that are not API payloads, so no schema of the API applies: each names its file,
 * a piece of its text, and why.
 */
const NOT_PAYLOADS: { file: string; contains: string; why: string }[] = [
  { file: 'docs/publishing.md', contains: '"phases": {"hashing"', why: 'the summary `storelens publish --json` prints (a CLI output; the API has no schema of it)' },
  { file: 'docs/publishing.md', contains: '"changes_version": 1', why: 'a published change list (/api/data/changes of `serve`, a static file, not /api/v1)' },
];

// --- the contract as a client reads it -------------------------------------------------------------

type Json = Record<string, unknown>;
const OPENAPI = buildOpenApi(ROUTES, capabilityReader(), documentedWebhooks()) as { paths: Record<string, Record<string, Json>>; webhooks: Record<string, Json>; components: { schemas: Record<string, Json> } };

// As MCP SDK 1.x creates its validator (validation/ajv-provider.js of @modelcontextprotocol/sdk): draft-07 ajv.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
addFormats(ajv);
const compiled = new Map<Json, ValidateFunction>();

/** What in `value` breaks `schema`, skipping what an elision leaves out. */
function schemaIssues(schema: Json, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return [];
  return (validate.errors ?? []).filter((e) => !elided(e, value)).map((e) => `${e.instancePath || '(root)'} ${e.message}${paramsText(e)}`);
}

const paramsText = (e: ErrorObject) => (e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : e.keyword === 'enum' || e.keyword === 'const' ? ` ${JSON.stringify(e.params)}` : '');

function elided(e: ErrorObject, root: unknown): boolean {
  if (e.keyword === 'additionalProperties' && e.params.additionalProperty === ELIDED) return true;
  let node = root;
  for (const key of e.instancePath.split('/').slice(1)) {
    if (node === ELIDED) return true;
    node = (node as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (node === ELIDED) return true;
  if (e.keyword === 'required' && isObject(node) && ELIDED in node) return true;
  return e.keyword === 'minItems' && Array.isArray(node) && node.includes(ELIDED);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const operationOf = (r: AnyRoute) => OPENAPI.paths[r.path]![r.method.toLowerCase()] as { responses: Record<string, Json> };
const successSchema = (r: AnyRoute, status: number) =>
  ((operationOf(r).responses[String(status)] as { content?: Record<string, { schema: Json }> } | undefined)?.content?.['application/json']?.schema);
const PROBLEM = OPENAPI.components.schemas.Problem!;
const messageSchema = (type: string) => ((OPENAPI.webhooks[type]!.post as Json).requestBody as { content: Record<string, { schema: Json }> }).content['application/json']!.schema;
const payloadSchema = (type: string) => (messageSchema(type).properties as Record<string, Json>).data!;

/** Every schema of an API object in the success answers, by the value of its `object` member. */
const OBJECT_SCHEMAS = new Map<string, Json[]>();
(function collect(node: unknown) {
  if (Array.isArray(node)) return node.forEach(collect);
  if (!isObject(node)) return;
  const object = (node.properties as Record<string, Json> | undefined)?.object?.const;
  if (typeof object === 'string') OBJECT_SCHEMAS.set(object, [...(OBJECT_SCHEMAS.get(object) ?? []), node]);
  Object.values(node).forEach(collect);
})(ROUTES.flatMap((r) => [r.status ?? 200, ...Object.keys(r.otherStatuses ?? {}).map(Number)].map((s) => successSchema(r, s))));

/** The operation answering `method path`, a literal segment before a `{param}`, with its path parameters. */
function routeFor(method: string, urlPath: string): { route: AnyRoute; params: Record<string, string> } | undefined {
  const segments = urlPath.split('/');
  const matches = ROUTES.filter((r) => r.method === method).flatMap((r) => {
    const declared = r.path.split('/');
    if (declared.length !== segments.length) return [];
    const params: Record<string, string> = {};
    for (const [i, d] of declared.entries()) {
      if (/^\{\w+\}$/.test(d)) params[d.slice(1, -1)] = decodeURIComponent(segments[i]!);
      else if (d !== segments[i]) return [];
    }
    return [{ route: r, params, literal: declared.length - Object.keys(params).length }];
  });
  return matches.sort((a, b) => b.literal - a.literal)[0];
}

// --- checks ---------------------------------------------------------------------------------------

/** A problem body: the Problem schema, a known kind with its status and title, and the status it is answered with. */
function problemIssues(body: unknown, status?: number): string[] {
  const issues = schemaIssues(PROBLEM, body);
  if (!isObject(body) || typeof body.type !== 'string') return issues;
  const kind = PROBLEM_KINDS[body.type.slice(PROBLEM_BASE.length) as keyof typeof PROBLEM_KINDS];
  if (!body.type.startsWith(PROBLEM_BASE) || !kind) return [...issues, `unknown problem type ${body.type}`];
  if (body.title !== kind.title) issues.push(`title ${JSON.stringify(body.title)}: the kind's title is ${JSON.stringify(kind.title)}`);
  if (body.status !== (status ?? kind.status)) issues.push(`status member ${String(body.status)}, answered with ${status ?? kind.status}`);
  if (status !== undefined && status !== kind.status) issues.push(`${body.type} is answered with ${kind.status}, not ${status}`);
  if (body.required_scope !== undefined && !(SCOPES as readonly unknown[]).includes(body.required_scope)) issues.push(`required_scope ${String(body.required_scope)} is no scope`);
  return issues;
}

const parseJson = (text: string): { value?: unknown; error?: string } => {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
};

interface Located {
  block: CodeBlock;
  curl?: Curl;
  /** The curl, in the block or a block above under the same heading, whose answer a transcript shows. */
  asked?: { block: CodeBlock; curl: Curl };
  /** For a curl: the status of the transcript right after it. */
  answer?: number;
}

/** Every block with the curl it asks (the latest under the same heading) and every curl with the answer shown after it. */
function locate(): { transcripts: Located[]; requests: Located[] } {
  const transcripts: Located[] = [];
  const requests: Located[] = [];
  let asked: Located['asked'];
  BLOCKS.forEach((block, i) => {
    const prev = BLOCKS[i - 1];
    if (!prev || prev.file !== block.file || prev.heading !== block.heading) asked = undefined;
    const t = transcript(block);
    if (t) {
      transcripts.push({ block, asked });
      const last = requests.at(-1);
      if (asked && last?.curl === asked.curl && last.answer === undefined) last.answer = t.status;
      return;
    }
    for (const curl of curls(block)) {
      if (curl.path === undefined) continue;
      requests.push({ block, curl });
      asked = { block, curl };
    }
  });
  return { transcripts, requests };
}

const { transcripts, requests } = locate();

function transcriptIssues({ block, asked }: Located): string[] {
  const t = transcript(block)!;
  const issues: string[] = [];
  const found = asked && routeFor(asked.curl.method, asked.curl.path!);
  const route = found?.route;
  const declared = route ? Object.keys(operationOf(route).responses).map(Number) : [...new Set(ROUTES.flatMap((r) => Object.keys(operationOf(r).responses).map(Number)))];
  if (!declared.includes(t.status)) issues.push(`status ${t.status}: ${route ? `${route.operationId} declares ${declared.join(', ')}` : 'no operation declares it'}`);
  const [media = '', ...parameters] = (t.headers['content-type'] ?? '').split(';').map((s) => s.trim().toLowerCase());
  if (parameters.some((p) => p.startsWith('charset=') && p !== 'charset=utf-8')) issues.push(`content-type ${t.headers['content-type']}: JSON is answered in UTF-8`);
  if (t.headers['content-length'] !== undefined && Number(t.headers['content-length']) !== Buffer.byteLength(t.body)) {
    issues.push(`content-length ${t.headers['content-length']}, the body shown has ${Buffer.byteLength(t.body)} bytes`);
  }
  const policy = t.headers['ratelimit-policy'];
  if (policy !== undefined) {
    const m = /^"(\w+)";q=(\d+);w=60$/.exec(policy);
    if (!m || DEFAULT_LIMITS[m[1] as keyof typeof DEFAULT_LIMITS] !== Number(m[2]) || (route && m[1] !== route.kind)) issues.push(`ratelimit-policy ${policy}: ${route ? `${route.operationId} is a ${route.kind} call, ` : ''}limits ${JSON.stringify(DEFAULT_LIMITS)}`);
  }
  if (t.status < 300) {
    if (!route) return [...issues, 'a success shown with no curl above it (under the same heading) naming its operation'];
    if (route.alternateContent?.[media]) return issues;
    if (media !== 'application/json') issues.push(`content-type ${media}: a success is application/json`);
    const body = parseJson(t.body);
    if (body.error) return [...issues, body.error];
    const schema = successSchema(route, t.status);
    return schema ? [...issues, ...schemaIssues(schema, body.value).map((s) => `${route.operationId} ${t.status}: ${s}`)] : issues;
  }
  if (media !== PROBLEM_MEDIA_TYPE) issues.push(`content-type ${media}: a problem is ${PROBLEM_MEDIA_TYPE}`);
  const body = parseJson(t.body);
  return body.error ? [...issues, body.error] : [...issues, ...problemIssues(body.value, t.status)];
}

function requestIssues({ curl, answer }: Located): string[] {
  const c = curl!;
  const found = routeFor(c.method, c.path!);
  if (!found) return [`no operation answers ${c.method} /api/v1${c.path}`];
  const { route, params } = found;
  // A request shown being refused is wrong on purpose.
  if (answer !== undefined && answer >= 400) return [];
  const issues: string[] = [];
  const zodIssues = (where: string, schema: z.ZodType | undefined, value: unknown) => {
    if (!schema) return;
    const r = schema.safeParse(value);
    if (!r.success) issues.push(...r.error.issues.map((i) => `${route.operationId} ${where} ${i.path.join('.') || '(root)'}: ${i.message}`));
  };
  zodIssues('path', route.params, params);
  if (route.query) zodIssues('query', route.query, c.query);
  else if (Object.keys(c.query).length) issues.push(`${route.operationId} takes no query parameters`);
  zodIssues('header', route.headers, c.headers);
  if (isMutating(route) && !c.headers['idempotency-key']) issues.push(`${route.operationId} needs an Idempotency-Key header`);
  if (c.data !== undefined) {
    if (!/^application\/json\b/i.test(c.headers['content-type'] ?? '')) issues.push('a body is sent as Content-Type: application/json');
    const body = parseJson(c.data);
    if (body.error) issues.push(`-d ${body.error}`);
    else if (!route.body) issues.push(`${route.operationId} takes no body`);
    else zodIssues('body', route.body, body.value);
  } else if (route.body) zodIssues('body', route.body, undefined);
  return issues;
}

type Kind = 'problem' | 'webhook message' | 'event payload' | 'API object' | 'account evidence' | 'accounts import (NDJSON)' | 'not a payload';

/** What a JSON block illustrates, and what in it breaks that schema; undefined when no rule knows it. */
function classify(block: CodeBlock): { kind: Kind; issues: string[] } | undefined {
  const allowed = NOT_PAYLOADS.find((a) => a.file === block.file && block.text.includes(a.contains));
  if (allowed) return { kind: 'not a payload', issues: [] };
  const whole = parseJson(withElisions(block.text));
  if (whole.error) {
    const lines = block.text.split('\n').filter((l) => l.trim());
    if (lines.length < 2 || lines.some((l) => parseJson(l).error)) return { kind: 'problem', issues: [whole.error] };
    if (!/`storelens accounts import\b/.test(block.heading)) return undefined;
    try {
      parseAccountsNdjson(at(block), block.text);
      return { kind: 'accounts import (NDJSON)', issues: [] };
    } catch (e) {
      return { kind: 'accounts import (NDJSON)', issues: [(e as Error).message] };
    }
  }
  const v = whole.value;
  if (isObject(v) && typeof v.type === 'string' && v.type.startsWith(PROBLEM_BASE)) return { kind: 'problem', issues: problemIssues(v) };
  if (isObject(v) && (EVENT_TYPES as readonly unknown[]).includes(v.type)) return { kind: 'webhook message', issues: schemaIssues(messageSchema(v.type as string), v) };
  if (isObject(v) && typeof v.object === 'string') {
    const candidates = OBJECT_SCHEMAS.get(v.object) ?? [];
    if (!candidates.length) return { kind: 'API object', issues: [`no operation answers an object "${v.object}"`] };
    const results = candidates.map((s) => schemaIssues(s, v)).sort((a, b) => a.length - b.length);
    return { kind: 'API object', issues: results[0]!.map((s) => `"${String(v.object)}" ${s}`) };
  }
  if (isObject(v)) {
    const members = Object.keys(v);
    const events = EVENT_TYPES.filter((type) => ((payloadSchema(type).required as string[] | undefined) ?? []).every((m) => members.includes(m)));
    if (events.length === 1) return { kind: 'event payload', issues: schemaIssues(payloadSchema(events[0]!), v).map((s) => `${events[0]} data: ${s}`) };
  }
  if (Array.isArray(v) && v.length && v.every((item) => item === ELIDED || (isObject(item) && 'kind' in item && 'contribution' in item))) {
    const account = (successSchema(ROUTES.find((r) => r.operationId === 'get_account')!, 200)!.properties as Record<string, Json>).evidence!;
    return { kind: 'account evidence', issues: schemaIssues(account, v) };
  }
  return undefined;
}

// --- the examples -------------------------------------------------------------------------------------

const looksJson = (b: CodeBlock) => ['json', 'jsonc', 'ndjson', 'jsonl'].includes(b.lang) || (b.lang === '' && /^\s*(\{\s*["}]|\[)/.test(b.text));
const jsonBlocks = BLOCKS.filter((b) => looksJson(b) && !transcript(b));
/** `$ storelens … --json` transcripts: each output line that opens a JSON value. */
const cliJson = BLOCKS.filter((b) => b.lang === '' && b.text.startsWith('$ storelens ')).flatMap((block) =>
  block.text.split('\n').flatMap((line, i) => (/^[[{]/.test(line) ? [{ block, line, offset: i }] : [])),
);

describe('HTTP transcripts in README.md and docs/', () => {
  it.each(transcripts.map((t) => [at(t.block), t] as const))('%s answers as its operation declares', (_where, t) => {
    expect(transcriptIssues(t), at(t.block)).toEqual([]);
  });
});

describe('curl requests to /api/v1 in README.md and docs/', () => {
  it.each(requests.map((r) => [at(r.block, r.curl!.offset), r] as const))('%s is a request its operation takes', (_where, r) => {
    expect(requestIssues(r), at(r.block, r.curl!.offset)).toEqual([]);
  });
});

describe('JSON blocks in README.md and docs/', () => {
  it.each(jsonBlocks.map((b) => [at(b), b] as const))('%s matches the schema it illustrates', (where, block) => {
    const result = classify(block);
    expect(result, `${where}: no rule knows what this JSON illustrates: classify it in examples.test.ts (or list it in NOT_PAYLOADS if it is no API payload)`).toBeDefined();
    expect(result!.issues, `${where} (${result!.kind})`).toEqual([]);
  });

  it('lists in NOT_PAYLOADS only blocks there are, each once', () => {
    for (const a of NOT_PAYLOADS) expect(jsonBlocks.filter((b) => b.file === a.file && b.text.includes(a.contains)), `${a.file}: ${a.contains}`).toHaveLength(1);
  });

  it('finds the examples of every kind', () => {
    const kinds = jsonBlocks.map((b) => classify(b)?.kind);
    for (const kind of ['problem', 'webhook message', 'event payload', 'API object', 'account evidence', 'accounts import (NDJSON)'] satisfies Kind[]) expect(kinds, kind).toContain(kind);
    expect(transcripts.length).toBeGreaterThan(30);
    expect(requests.length).toBeGreaterThan(20);
  });
});

// --- accounts as the product words them ---------------------------------------------------------

/** Every account object (`"object": "account"` with its evidence) in a JSON value. */
function accountsIn(v: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(v)) for (const item of v) accountsIn(item, found);
  else if (isObject(v)) {
    if (v.object === 'account' && Array.isArray(v.evidence)) found.push(v);
    for (const member of Object.values(v)) accountsIn(member, found);
  }
  return found;
}

const IMPORTED_DETAIL = importedEvidence([], 0)[0]!.detail;

/**
 * What in an account shown differs from what the product writes: an imported score (model
 * version 0) has no interval and its `imported` term first; a model's row words its intercept,
 * its key-worded features and each signal term (the signal's detail, then its month) as the
 * ranking does.
 */
function wordingIssues(a: Json): string[] {
  const issues: string[] = [];
  const terms = (a.evidence as unknown[]).filter(isObject);
  if (a.model_version === 0) {
    if (terms[0]?.key !== IMPORTED_KEY || terms[0].detail !== IMPORTED_DETAIL) issues.push(`an imported row (model_version 0) starts its evidence with the "${IMPORTED_KEY}" term, worded "${IMPORTED_DETAIL}"`);
    if (a.logit_sd !== null || a.score_interval !== null) issues.push('an imported row (model_version 0) has logit_sd and score_interval null');
    return issues;
  }
  for (const t of terms) {
    const key = String(t.key);
    if (t.kind === 'intercept') {
      if (key !== 'intercept' || t.detail !== keyDetail('intercept')) issues.push(`a model's intercept is keyed "intercept" and worded "${keyDetail('intercept')}", not ${JSON.stringify(t.detail)}`);
    } else if (t.kind === 'feature' && keyDetail(key) !== undefined && t.detail !== keyDetail(key)) {
      issues.push(`feature ${key} is worded "${keyDetail(key)}", not ${JSON.stringify(t.detail)}`);
    } else if (t.kind === 'signal' && /^signal:[a-z_]+(:earlier)?$/.test(key) && typeof t.month === 'string') {
      const when = /\((\d{4}-\d{2})(, \d+ months? before its latest data)?\)$/.exec(String(t.detail));
      if (when?.[1] !== t.month) issues.push(`signal term ${key} is worded as the signal's detail followed by its month, "… (${t.month})", not ${JSON.stringify(t.detail)}`);
    }
  }
  return issues;
}

const shownAccounts = [
  ...transcripts.flatMap((t) => accountsIn(parseJson(transcript(t.block)!.body).value).map((a) => ({ block: t.block, a }))),
  ...jsonBlocks.flatMap((b) => accountsIn(parseJson(withElisions(b.text)).value).map((a) => ({ block: b, a }))),
];

describe('accounts shown in README.md and docs/', () => {
  it('finds imported and model-scored accounts among the examples', () => {
    expect(shownAccounts.some(({ a }) => a.model_version === 0)).toBe(true);
    expect(shownAccounts.some(({ a }) => (a.model_version as number) > 0)).toBe(true);
  });

  it.each(shownAccounts.map(({ block, a }) => [`${at(block)} ${String(a.store_id)}`, a] as const))('%s is worded as the product words it', (where, a) => {
    expect(wordingIssues(a), where).toEqual([]);
  });
});

describe('JSON printed by `storelens … --json` in README.md and docs/', () => {
  it.each(cliJson.map((c) => [at(c.block, c.offset), c] as const))('%s is well-formed JSON', (_where, c) => {
    expect(parseJson(c.line).error, at(c.block, c.offset)).toBeUndefined();
  });
});
