/**
 * Accounts scored outside storelens and loaded with `storelens accounts import`: the line
 * contract the import checks, and the row they become. An imported score has no model behind it,
 * so its evidence cannot weigh anything: the row's logit is the imported score's, carried whole
 * by one `imported` term, and each reason the file gives is listed with contribution 0. The
 * contributions still add up to the logit, as on every row (the account row contract).
 */
import { z } from 'zod';
import { COUNTRY_SAYS, countryCode } from '../core/country.js';
import { MONTH } from '../core/month.js';
import { storeIdRefusal } from '../core/panel-contract.js';
import { SIGNAL_TYPES } from '../core/signals.js';
import { keptText, trimBlanks } from '../core/text.js';
import { OUTSIDE_INPUT } from '../core/missing-input.js';

const MONTH_TEXT = z.string().regex(MONTH, 'must be a month YYYY-MM');
const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A reason as stored and shown: the declared evidence item, without a contribution of its own. */
export const ImportedReason = z.strictObject({
  kind: z.enum(['feature', 'signal'], { message: 'must be "feature" or "signal" (the imported score itself is the row\'s only weighted term)' }),
  key: text(200),
  detail: text(500),
  month: MONTH_TEXT.optional(),
});
export type ImportedReason = z.infer<typeof ImportedReason>;

/** `{"signal":"agentic_feature_adopted","detail":"llms_txt","month":"2026-09"}`: a signal type, in the key scoring gives it. */
const SignalShorthand = z.strictObject({ signal: z.enum(SIGNAL_TYPES), detail: text(500).optional(), month: MONTH_TEXT.optional() });
/** `{"feature":"plus_plan","detail":"On the Plus plan"}`: a feature of the store. */
const FeatureShorthand = z.strictObject({ feature: text(200), detail: text(500).optional() });

const SHAPES =
  'not a member of an evidence item (give a `signal` with an optional `detail` and `month`, a `feature` with an optional `detail`, or `kind`, `key`, `detail` and an optional `month`)';

const sentence = (words: string) => `${words[0]!.toUpperCase()}${words.slice(1)}`;

/** One evidence item of an import line, in any documented shape, as the declared reason. */
const ReasonLine = z.record(z.string(), z.unknown()).transform((item, ctx): ImportedReason => {
  if (!('signal' in item || 'feature' in item || 'kind' in item)) {
    ctx.addIssue({ code: 'custom', message: `${Object.keys(item).join(', ') || '{}'}: ${SHAPES}` });
    return z.NEVER;
  }
  const [shape, declared] = 'signal' in item ? [SignalShorthand, false] : 'feature' in item ? [FeatureShorthand, false] : [ImportedReason, true];
  const r = shape.safeParse(item, OUTSIDE_INPUT);
  if (!r.success) {
    for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issueMessage(issue), path: issue.path });
    return z.NEVER;
  }
  const v = r.data as Record<string, string | undefined>;
  if (declared) return r.data as ImportedReason;
  if (v.signal !== undefined) {
    const words = sentence(v.signal.replace(/_/g, ' '));
    return { kind: 'signal', key: `signal:${v.signal}`, detail: v.detail ? `${words}: ${v.detail}` : words, ...(v.month ? { month: v.month } : {}) };
  }
  return { kind: 'feature', key: v.feature!, detail: v.detail ?? v.feature! };
});

/** An evidence item in a documented shape as its reason (undefined when it is in none). */
export function readReason(item: unknown): ImportedReason | undefined {
  const r = ReasonLine.safeParse(item);
  return r.success ? r.data : undefined;
}

/** A zod issue in words an importer can act on (an unknown member is named, with the shapes accepted). */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return issue.message;
  if (issue.keys.includes('contribution')) {
    return "contribution: an imported score has no model weights; leave contribution out (each reason is shown with contribution 0, and the score's logit as one `imported` term)";
  }
  return `${issue.keys.join(', ')}: ${SHAPES}`;
}

/**
 * A text of the store as the panel types it (core/text.ts: blanks trimmed, CRLF read as LF,
 * Unicode NFC, nothing left ⇒ null). So an imported account reads as the same store ingested
 * from the panel, and the list's exact filters (`category`, `plan`) find it. Its length is the
 * kept text's, as the contact source measures its text: the blanks trimmed off are no part of it.
 */
const storeText = (max: number) =>
  z
    .string()
    .nullable()
    .optional()
    .transform((v) => (v == null ? v : keptText(v)))
    .pipe(z.string().max(max, `must be at most ${max} characters`).nullable().optional());

/**
 * A country as the panel takes it: two letters, kept in capitals (`gb` ⇒ `GB`), empty ⇒ null.
 * "United Kingdom" is refused: the list's `country` filter takes an ISO code only, so it could
 * never find the account.
 */
const country = z
  .string()
  .nullable()
  .optional()
  .transform((v, ctx) => {
    if (v == null) return v;
    if (trimBlanks(v) === '') return null;
    const code = countryCode(v);
    if (code !== null) return code;
    ctx.addIssue({ code: 'custom', message: `${COUNTRY_SAYS} (as the panel and the list filter take it), got ${JSON.stringify(v.slice(0, 40))}` });
    return z.NEVER;
  });

/**
 * A store id as the panel's and the contact source's NDJSON take it, so an account imports under
 * the id its store has there: text, every character kept (only spaces is as empty as none), or a
 * whole JSON number taken as its digits (`12345` ⇒ "12345"). Refused as they refuse it: a number
 * with a fraction, one past 2^53 (rounded when the line was parsed: its digits would be another
 * id's), and an id a spreadsheet wrote in scientific notation (1.23457E+11, its digits lost).
 */
const storeId = z
  .union([z.string(), z.number()], { error: 'must be a string (or a whole number, taken as its digits)' })
  .transform((v, ctx) => {
    if (typeof v === 'string') return v;
    if (!Number.isInteger(v)) ctx.addIssue({ code: 'custom', message: `a number with a fraction (${v}) is no store id: write the id as a JSON string or an integer` });
    else if (!Number.isSafeInteger(v)) ctx.addIssue({ code: 'custom', message: `a number too large to read exactly (${v}): write it as a JSON string` });
    else return String(v);
    return z.NEVER;
  })
  .pipe(
    z.string().superRefine((id, ctx) => {
      const why = storeIdRefusal(id);
      if (why !== null) ctx.addIssue({ code: 'custom', message: why });
    }),
  );

const SCORE_SAYS = 'must be between 0 and 1 (a probability; divide a 0–100 score by 100)';
/** A score as a caller writes one (an imported score, the list's `min_score`): a probability, 0–1. */
export const Score = z.number().min(0, SCORE_SAYS).max(1, SCORE_SAYS);

/** One line of an import file: the account row contract's fields an importer supplies. */
export const ImportLine = z.strictObject({
  store_id: storeId,
  score: Score,
  domain: storeText(253),
  country,
  category: storeText(200),
  plan: storeText(100),
  in_market: z.boolean().optional(),
  evidence: z.array(ReasonLine).max(100, 'must list at most 100 items').optional(),
});
export type ImportLine = z.output<typeof ImportLine>;

/** Scores of 0 and 1 are kept finite: the logit of a score this close to 0 or 1. */
const EDGE = 1e-6;

/** The logit of an imported score (a probability; the ends clamped to stay finite). */
export function importedLogit(score: number): number {
  const p = Math.min(1 - EDGE, Math.max(EDGE, score));
  return Math.log(p / (1 - p));
}

/** The key of the term that carries an imported score. */
export const IMPORTED_KEY = 'imported';

/**
 * The evidence an imported row shows: the `imported` term carrying the whole logit, then the
 * file's reasons (any documented shape, as ImportLine reads them), each contributing 0 (their
 * weights are the importer's, and unknown here).
 */
export function importedEvidence(reasons: readonly unknown[], logit: number) {
  return [
    { kind: 'intercept' as const, key: IMPORTED_KEY, detail: 'Score imported with storelens accounts import, not weighed by this workspace\'s model: it carries the whole logit', contribution: logit },
    ...reasons.map((r) => ({ ...ReasonLine.parse(r), contribution: 0 })),
  ];
}
