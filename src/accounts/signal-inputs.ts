/**
 * The inputs that carry what agencies sell on, beside a signal's type (accounts/model.ts):
 *   - the signal's subject, `subject:<type>:<subject>`: which network an ad channel started on,
 *     which app was installed, which agentic feature, which plan (a deviation from the type's
 *     own weight);
 *   - for an app installed or removed, the app's kind (core/apps.ts), `kind:<type>:<kind>`: "installed
 *     a subscriptions app", shared by the apps of that kind, so the outcomes of one (ReCharge) carry
 *     to the others (Bold Subscriptions, Appstle), which a few stores show each; its subject says
 *     what this app adds to its kind;
 *   - interactions of the store's category or plan with a signal type,
 *     `category+signal:<type>:<category>` and `plan+signal:<type>:<plan>`: "an apparel store that
 *     started advertising on a new network" can weigh more than apparel and a new network do
 *     apart (the pairwise terms of a GA²M, kept additive so the evidence still adds up);
 *   - the store's category with an ad network it advertises on, `category+ads:<network>:<category>`:
 *     "a home & garden store that advertises on Google" (a store's standing, no signal: 1 or 0).
 * Each is one input per value seen among at least MIN_PAIR_SHARE of the workspace's accounts; a
 * signal's pairs count it as its type's own input does (model.ts terms: its strength in the latest
 * month; in an earlier one, the strength halved for every month past the one before the latest).
 * Pure: keys, wording and which inputs exist; the weights are fit.ts's, the priors prior.ts's.
 */
import { APP_KINDS, appKind, type AppKind } from '../core/apps.js';
import { FEATURE_LABELS, NETWORK_NAMES, type SignalType } from '../core/signals.js';
import type { StoreSignal } from '../ingest/index.js';

type RecentSignal = Omit<StoreSignal, 'store_id'>;

/** A subject or pair gets an input when at least this share of the accounts shows it (at most MAX_PAIRS, most frequent first). */
export const MIN_PAIR_SHARE = 0.005;
/** … and at least this many accounts. */
export const MIN_PAIR_STORES = 5;
export const MAX_PAIRS = 200;

export const SUBJECT = 'subject';
export const CATEGORY_SIGNAL = 'category+signal';
export const PLAN_SIGNAL = 'plan+signal';
export const CATEGORY_ADS = 'category+ads';
export const KIND = 'kind';
export type PairGroup = typeof SUBJECT | typeof KIND | typeof CATEGORY_SIGNAL | typeof PLAN_SIGNAL | typeof CATEGORY_ADS;

/** The signal types whose subject is an app, and so has a kind. */
const APP_SIGNALS: ReadonlySet<SignalType> = new Set(['app_installed', 'app_removed']);

/** What a signal's subject names, by type (types without a subject have none). */
const SUBJECT_NOUN: Partial<Record<SignalType, string>> = {
  ad_channel_started: 'network',
  ad_channel_stopped: 'network',
  app_installed: 'app',
  app_removed: 'app',
  agentic_feature_adopted: 'feature',
  agentic_feature_dropped: 'feature',
  plan_upgraded: 'plan',
  plan_downgraded: 'plan',
};

/**
 * The input of a store's standing that a signal's subject is about, by signal type: the app a store
 * has (`app:recharge`) for an app installed or removed, the network it advertises on for an ad
 * channel, the agentic feature. A recent install of ReCharge and having ReCharge are two inputs,
 * and their priors share a spread (fit.ts fitModel). Not a plan: the plan rule of the learning
 * benchmark tells a store on the plus plan from one that just upgraded to it, and with the plan's
 * spread shared it read 0.81 against 0.84 (docs/measurements/learning.md).
 */
const STANDING_OF_SUBJECT: Partial<Record<SignalType, string>> = {
  ad_channel_started: 'ads',
  ad_channel_stopped: 'ads',
  app_installed: 'app',
  app_removed: 'app',
  agentic_feature_adopted: 'agentic',
  agentic_feature_dropped: 'agentic',
};

/** The key of the standing input a subject input (`<type>:<subject>`, the name of a `subject:` key) is about, or undefined. */
export function standingOfSubject(name: string): string | undefined {
  const { type, value } = splitPair(SUBJECT, name);
  const group = STANDING_OF_SUBJECT[type];
  return group === undefined ? undefined : `${group}:${value}`;
}

/** A signal type as what a store did, for "a … store that …". */
const DID: Record<SignalType, string> = {
  store_opened: 'opened',
  store_closed: 'closed',
  ad_channel_started: 'started advertising on a new network',
  ad_channel_stopped: 'stopped advertising on a network',
  app_installed: 'installed an app',
  app_removed: 'removed an app',
  agentic_feature_adopted: 'adopted an agentic feature',
  agentic_feature_dropped: 'dropped an agentic feature',
  traffic_up: 'grew its traffic',
  traffic_down: 'lost traffic',
  catalogue_growth: 'grew its catalogue',
  revenue_jump: 'grew its revenue',
  plan_upgraded: 'upgraded its plan',
  plan_downgraded: 'downgraded its plan',
};

/** A subject as the signal names it: TikTok, agent checkout; an app or a plan as it is. */
function subjectWords(type: SignalType, subject: string): string {
  if (type.startsWith('ad_channel')) return NETWORK_NAMES[subject] ?? subject;
  if (type.startsWith('agentic')) return FEATURE_LABELS[subject as keyof typeof FEATURE_LABELS] ?? subject;
  return subject;
}

/** The keys of the pair inputs a signal of a store (with its category and plan) would have. */
export function pairKeys(sig: RecentSignal, category: string | null, plan: string | null): string[] {
  const keys: string[] = [];
  if (sig.subject !== null && SUBJECT_NOUN[sig.type] !== undefined) keys.push(`${SUBJECT}:${sig.type}:${sig.subject}`);
  const kind = sig.subject !== null && APP_SIGNALS.has(sig.type) ? appKind(sig.subject) : undefined;
  if (kind !== undefined) keys.push(`${KIND}:${sig.type}:${kind}`);
  if (category !== null) keys.push(`${CATEGORY_SIGNAL}:${sig.type}:${category}`);
  if (plan !== null) keys.push(`${PLAN_SIGNAL}:${sig.type}:${plan}`);
  return keys;
}

/** The keys of the category × ad network inputs a store has (one per network it advertises on). */
export function standingPairKeys(s: { category: string | null; ads: readonly string[] }): string[] {
  return s.category === null ? [] : [...new Set(s.ads)].map((n) => `${CATEGORY_ADS}:${n}:${s.category}`);
}

/** The pair inputs of a workspace: every key at least MIN_PAIR_SHARE of the stores show (each store counted once per key). */
export function pairInputs(
  stores: ReadonlyArray<{ category: string | null; plan: string | null; ads: readonly string[]; signals: readonly RecentSignal[] }>,
  inWindow: (sig: RecentSignal) => boolean,
): string[] {
  const counts = new Map<string, number>();
  for (const s of stores) {
    const seen = new Set<string>(standingPairKeys(s));
    for (const sig of s.signals) if (inWindow(sig)) for (const k of pairKeys(sig, s.category, s.plan)) seen.add(k);
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const min = Math.max(MIN_PAIR_STORES, MIN_PAIR_SHARE * stores.length);
  return [...counts]
    .filter(([, n]) => n >= min)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_PAIRS)
    .map(([k]) => k)
    .sort();
}

/** A pair key's parts: its group, the signal type (the network, for category+ads) and the value (subject, category or plan). */
export function splitPair(group: string, name: string): { type: SignalType; value: string } {
  const at = name.indexOf(':');
  return { type: name.slice(0, at) as SignalType, value: name.slice(at + 1) };
}

const article = (words: string) => (/^[aeiou]/i.test(words) ? 'An' : 'A');
const lower = (s: string) => (s.length ? s[0].toLowerCase() + s.slice(1) : s);

/** A pair input in plain words, without a particular signal (model insights). */
export function pairLabel(group: PairGroup, name: string): string {
  const { type, value } = splitPair(group, name);
  if (group === SUBJECT) return `Signal: ${subjectPhrase(type, value)} (which ${SUBJECT_NOUN[type] ?? 'subject'} it was)`;
  if (group === KIND) return `Signal: ${SUBJECT_VERB[type] ?? type} ${kindWords(value)}`;
  if (group === CATEGORY_SIGNAL) return `${article(value)} ${value} store that ${DID[type]}`;
  if (group === CATEGORY_ADS) return `${article(value)} ${value} store that advertises on ${NETWORK_NAMES[type] ?? type}`;
  return `A store on the ${value} plan that ${DID[type]}`;
}

/** A pair input in plain words for one store's signal (evidence): its detail says which network, app or feature. */
export function pairDetail(group: PairGroup, name: string, sig: RecentSignal, when: string): string {
  const { value } = splitPair(group, name);
  const did = lower(sig.detail);
  if (group === SUBJECT) return `${sig.detail} (${when}): which ${SUBJECT_NOUN[sig.type] ?? 'subject'} it was`;
  if (group === KIND) return `${sig.detail} (${when}): ${kindWords(value)}`;
  if (group === CATEGORY_SIGNAL) return `${article(value)} ${value} store that ${did} (${when})`;
  return `A store on the ${value} plan that ${did} (${when})`;
}

const SUBJECT_VERB: Partial<Record<SignalType, string>> = {
  ad_channel_started: 'Started advertising on',
  ad_channel_stopped: 'Stopped advertising on',
  app_installed: 'Installed',
  app_removed: 'Removed',
  agentic_feature_adopted: 'Adopted',
  agentic_feature_dropped: 'Dropped',
  plan_upgraded: 'Upgraded to',
  plan_downgraded: 'Downgraded to',
};

const kindWords = (kind: string): string => APP_KINDS[kind as AppKind]?.words ?? `an app of kind ${kind}`;

function subjectPhrase(type: SignalType, subject: string): string {
  return `${SUBJECT_VERB[type] ?? type} ${subjectWords(type, subject)}`;
}
