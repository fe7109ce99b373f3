/**
 * Response validation (validateResponses: tests, and `STORELENS_VALIDATE_RESPONSES=1` in
 * development): a handler's JSON body, as it goes out on the wire, must be exactly what its
 * route's `response` schema documents, with a status the route declares. Checked twice: by the
 * zod schema itself, and by the JSON Schema made of it (what openapi.json publishes and the MCP
 * tool's output schema is) with ajv configured as the MCP SDKs' clients configure it — so a body
 * that one of them would refuse never passes. A member the schema does not declare, a missing
 * one, a wrong value or another status is a ResponseMismatch, which the executor answers as a
 * 500 (and rolls back in a mutating call).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { z } from 'zod';
import type { AnyRoute, OperationResult } from './route-def.js';
import { jsonSchema } from './schemas.js';

export class ResponseMismatch extends Error {
  constructor(
    readonly operationId: string,
    readonly issues: readonly string[],
  ) {
    super(`${operationId}: the response does not match its declared schema: ${issues.slice(0, 10).join('; ')}${issues.length > 10 ? ` (and ${issues.length - 10} more)` : ''}`);
    this.name = 'ResponseMismatch';
  }
}

/** The result as it is, or a ResponseMismatch naming every difference of its status, JSON body (and replay body) from the route's declaration. */
export function checkResult<R extends OperationResult>(route: AnyRoute, result: R): R {
  const declared = [route.status ?? 200, ...Object.keys(route.otherStatuses ?? {}).map(Number)];
  const issues = declared.includes(result.status) ? [] : [`status ${result.status}: the route declares ${declared.join(' or ')}`];
  if (result.contentType === undefined) issues.push(...bodyIssues(route, result.body, 'body'));
  if (result.contentType === undefined && result.replayBody !== undefined) issues.push(...bodyIssues(route, result.replayBody, 'replayBody'));
  if (issues.length) throw new ResponseMismatch(route.operationId, issues);
  return result;
}

function bodyIssues(route: AnyRoute, body: unknown, where: string): string[] {
  const text = JSON.stringify(body);
  if (text === undefined) return [`${where}: not JSON`];
  const wire: unknown = JSON.parse(text);
  const parsed = (route.response as z.ZodType).safeParse(wire);
  if (!parsed.success) return parsed.error.issues.map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`);
  const drift = differences(wire, parsed.data, where);
  if (drift.length) return drift;
  const published = publishedValidator(route);
  if (published(wire)) return [];
  return (published.errors ?? []).map((e) => `${where}${e.instancePath.replace(/\//g, '.')}: ${e.message ?? 'invalid'} (the published JSON Schema)`);
}

/** ajv as the MCP SDKs' clients set it up (`@modelcontextprotocol/sdk` AjvJsonSchemaValidator). */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true }));
const validators = new WeakMap<AnyRoute, ValidateFunction>();

/** The validator of a route's published response JSON Schema, compiled once. */
function publishedValidator(route: AnyRoute): ValidateFunction {
  let v = validators.get(route);
  if (!v) validators.set(route, (v = ajv.compile(jsonSchema(route.response as z.ZodType, 'output'))));
  return v;
}

/** Where the body sent differs from what the schema makes of it: members it leaves out (undeclared) or adds (defaults), values it changes. */
function differences(sent: unknown, schema: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(schema)) return sent.flatMap((v, i) => differences(v, schema[i], `${path}.${i}`));
  if (isObject(sent) && isObject(schema)) {
    const out: string[] = [];
    for (const k of Object.keys(sent)) out.push(...(k in schema ? differences(sent[k], schema[k], `${path}.${k}`) : [`${path}.${k}: not declared by the schema`]));
    for (const k of Object.keys(schema)) if (!(k in sent)) out.push(`${path}.${k}: missing (the schema fills it in)`);
    return out;
  }
  return Object.is(sent, schema) ? [] : [`${path}: sent ${JSON.stringify(sent)}, the schema makes it ${JSON.stringify(schema)}`];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
