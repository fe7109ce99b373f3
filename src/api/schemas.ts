/** Schemas shared by several operations. */
import { z } from 'zod';
import { EMAIL_MAX, normaliseEmail } from '../core/email.js';
import { STORE_ID_EMPTY, STORE_ID_MAX, storeIdRefusal } from '../core/panel-contract.js';
import { keptText } from '../core/text.js';

/** A problem body: the RFC 7807 members, and the extension members some kinds add (docs/rest-api.md). */
export const Problem = z
  .looseObject({
    type: z.string().describe('Stable URI of the problem kind'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('One per invalid parameter or field (invalid-parameters, invalid-body)'),
    required_scope: z.string().optional().describe('The scope the call needs (insufficient-scope)'),
    activation: z.string().optional().describe('The activation the workspace needs (activation-required)'),
    retry_after: z.int().optional().describe('Seconds to wait (rate-limited)'),
  })
  .meta({ description: 'RFC 7807 problem details (application/problem+json); some kinds add members, named on their operations' });

export const LIMIT_DEFAULT = 50;
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 200;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * A whole number in a query string, written in plain decimal digits only: `0x10`, `1e2`, `+5`,
 * `05` or ` 5` ⇒ 400 (Number() would take them all). A number passed as such (a transport
 * with typed arguments) is taken as it is; `schema` then checks its range.
 */
export const queryInt = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v, ctx) => {
    if (typeof v !== 'string') return v;
    if (DECIMAL.test(v)) return Number(v);
    ctx.addIssue({ code: 'custom', message: `must be a whole number in decimal digits (got ${JSON.stringify(v.slice(0, 20))})` });
    return z.NEVER;
  }, schema);

/** `limit` and `cursor` of every paged list. */
export const pageQuery = {
  limit: queryInt(z.int().min(LIMIT_MIN).max(LIMIT_MAX).default(LIMIT_DEFAULT)).describe(`Page size, ${LIMIT_MIN}–${LIMIT_MAX} in decimal digits (default ${LIMIT_DEFAULT}); anything else ⇒ 400`),
  cursor: z.string().min(1).max(2048).optional().describe('The `next_cursor` of the previous page'),
};

export function page<T extends z.ZodType>(item: T) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null at the end of the list'),
    })
    .meta({ description: 'A page of a bounded list' });
}

/** What a paged list under one resource declares: GET, a read, the resource's params, `limit` and `cursor`, 400 (a bad one) and 404 (no such resource). */
export const pagedUnder = <P extends z.ZodType>(params: P) => ({ method: 'GET' as const, kind: 'read' as const, params, query: z.strictObject(pageQuery), problems: [400, 404] });

export const idParam = (what: string) => z.strictObject({ id: z.string().min(1).max(200).describe(`Identifier of the ${what}`) });
/**
 * A store id as the API takes it: by the panel's own rule (core/panel-contract.ts), so every
 * store of the panel can be named, and an id no panel holds (only spaces, a spreadsheet's
 * 1.23457E+11) is refused in the words `accounts import` uses rather than looked for.
 */
export const storeId = z
  .string()
  .min(1, { message: STORE_ID_EMPTY, abort: true })
  .max(STORE_ID_MAX, { message: `must be at most ${STORE_ID_MAX} characters`, abort: true })
  .superRefine((id, ctx) => {
    const why = storeIdRefusal(id);
    if (why !== null) ctx.addIssue({ code: 'custom', message: why });
  });
/**
 * A text field or filter kept as every door keeps text (core/text.ts: blanks trimmed, CRLF read as
 * LF, Unicode NFC), at most `max` characters; nothing left ⇒ 400. The OpenAPI document and the
 * MCP tools see a plain string.
 */
export const keptString = (max: number) =>
  z
    .string()
    .overwrite((s) => keptText(s) ?? '')
    .min(1, 'must not be empty or only spaces')
    .max(max);

export const storeParam = z.strictObject({ store_id: storeId.describe('Store identifier of the account') });

/**
 * A version in If-Match: its number, bare or quoted as an ETag (`3` or `"3"`), or `*`. RFC 9110
 * reads `*` as "any current version" (a client that only wants the resource to exist, as the
 * request already requires): it sets no version, as if If-Match were left out. A weak tag
 * (`W/"3"`) names no version here: If-Match compares strongly, so it stays malformed (400).
 */
export const IF_MATCH_VERSION = /^(?:\*|([1-9][0-9]{0,14})|"([1-9][0-9]{0,14})")$/;

export const IF_MATCH = z.object({
  'if-match': z
    .string()
    .regex(IF_MATCH_VERSION, 'must be the version the change is based on, e.g. 3 or "3", or *')
    .optional()
    .describe('The `version` the change is based on, as a read or change of the resource answered it, bare or quoted (`3` or `"3"`); a stale version ⇒ 409. Without it, or with `*` (any version), the change applies to the latest version.'),
});

/** A resource's version as its strong ETag (`"3"`): what If-Match takes, and If-None-Match is compared with. */
export const versionTag = (version: number): string => `"${version}"`;

/**
 * The precondition an If-Match header states, in one form (what an Idempotency-Key stands for
 * counts it): a version's strong tag however it was written (`3` and `"3"` ⇒ `"3"`), and none for
 * `*`, which holds whenever the resource exists, as when no If-Match is sent. A value naming no
 * version is returned as it is (validation refuses it before anything is kept).
 */
export function ifMatchCondition(v: string | string[] | undefined): string | string[] | undefined {
  if (typeof v !== 'string') return v;
  const m = IF_MATCH_VERSION.exec(v);
  if (!m) return v;
  const version = m[1] ?? m[2];
  return version === undefined ? undefined : versionTag(Number(version));
}

/** The version an If-Match header names (validated by IF_MATCH), or undefined when none was sent or it is `*`. */
export function ifMatchVersion(headers: Record<string, string | string[] | undefined>): number | undefined {
  const v = headers['if-match'];
  if (typeof v !== 'string') return undefined;
  const m = IF_MATCH_VERSION.exec(v)!;
  const version = m[1] ?? m[2];
  return version === undefined ? undefined : Number(version);
}

/**
 * An email address as a request may send it: one zod's `z.email()` takes, with blanks around it
 * that the server trims (`\s` and String.prototype.trim are the same blanks). A request schema
 * checks it with this pattern, so openapi.json and the MCP tools declare exactly what is refused.
 */
export const EMAIL_AS_SENT = new RegExp(`^\\s*(?:${z.regexes.email.source.slice(1, -1)})\\s*$`);

/**
 * An email address in a body or a filter (a contact's, a deal's owner): one EMAIL_AS_SENT takes, at
 * most as long as a contact's, and kept as a contact's is (core/email.ts: trimmed, the domain
 * lower-cased). Anything else ⇒ 400 naming the field or parameter, wherever an email is taken.
 */
export const Email = z.string().max(EMAIL_MAX).regex(EMAIL_AS_SENT, 'must be an email address').trim().pipe(z.email()).transform(normaliseEmail);

/** A currency as a request may send it: three capitals (which ISO 4217 codes exist is the server's list). */
export const CURRENCY_AS_SENT = /^[A-Z]{3}$/;

/**
 * The body of a PATCH: the fields it may change, each optional, and at least one of them given
 * (`null`, which clears a field, counts): `{}` changes nothing and is refused, 400 invalid-body,
 * on every PATCH alike. `hint` adds what the message should say besides the fields' names.
 * openapi.json says it with `minProperties: 1`.
 */
export function patchBody<S extends z.ZodRawShape>(shape: S, hint?: string) {
  const names = Object.keys(shape);
  const fields = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
  return z
    .strictObject(shape)
    .refine((b) => Object.values(b).some((v) => v !== undefined), `name at least one field to change (${fields})${hint ? `; ${hint}` : ''}`)
    .meta({ minProperties: 1 });
}

export const Deleted = <const O extends string>(object: O) => z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

/**
 * A schema as JSON Schema (draft 2020-12, without `$schema`): what a caller sends (`input`) or
 * receives (`output`; an object then allows no other member). openapi.json and the MCP tools
 * publish these.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
