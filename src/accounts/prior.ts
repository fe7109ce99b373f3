/**
 * The account model's prior and its wording: the starting weighting every workspace begins from
 * (PRIOR, priorOf), the signal window and age that the inputs count signals over, and how each
 * input and each of a store's terms reads in plain words (labelOf, describeTerm). Pure data and
 * strings; accounts/model.ts builds the inputs from it, accounts/fit.ts fits the weights away from it.
 */
import { LRUCache } from 'lru-cache';
import type { SignalType } from '../core/signals.js';
import { FEATURE_LABELS, NETWORK_NAMES } from '../core/signals.js';
import { monthIndex } from '../core/panel-contract.js';
import type { Input, PriorEntry, PriorSds, StoredEvidence, StoreSnapshot, Term } from './model-types.js';

export type { PriorEntry } from './model-types.js';
import { CATEGORY_ADS, CATEGORY_SIGNAL, KIND, pairDetail, pairLabel, PLAN_SIGNAL, SUBJECT } from './signal-inputs.js';

/** Signals older than this many months (before the latest ingested month) do not count. */
export const SIGNAL_WINDOW = 6;
/**
 * A signal of the latest month and an earlier one are separate inputs, so the model learns how
 * much a signal's age matters; at the prior an earlier signal counts EARLIER × as much a month
 * older (the same as halving every month).
 */
export const EARLIER = 0.5;
/** A signal's weight halves every month. */
export const SIGNAL_HALF_LIFE_MONTHS = 1;

/**
 * The starting weighting: what the model believes before a workspace reports any outcome.
 * Fresh activity (new channels, apps, agentic features, growth, upgrades) raises a score;
 * retreat lowers it; a store that closed is almost never worth contacting.
 */
export const PRIOR = {
  intercept: { mean: -2, sd: 2 },
  category: { mean: 0, sd: 0.75 },
  /**
   * Country and app are one input per level (some 30 countries, up to MAX_APPS apps): the prior
   * holds that few of them matter, so each starts tight; a strong one still shows after tens of
   * labels. (Learning benchmark, 10 seeds, E-P@50 after 200 outcomes with exploration: 0.76 with
   * sd 0.75 / 0.5, 0.79 with 0.375 / 0.25; exploit-only 0.70 → 0.73. Then earlier signals as
   * inputs of their own (EARLIER): 0.79 → 0.83 [0.81, 0.86], exploit-only 0.72.)
   */
  country: { mean: 0, sd: 0.375 },
  plan: { mean: 0, sd: 0.75 },
  size: { visits: { mean: 0.3, sd: 0.5 }, revenue: { mean: 0.3, sd: 0.5 }, products: { mean: 0.1, sd: 0.5 } },
  app: { mean: 0.05, sd: 0.25 },
  ads: { mean: 0.15, sd: 0.5 },
  agentic: { mean: 0.15, sd: 0.5 },
  signal: {
    store_opened: { mean: 0.3, sd: 0.75 },
    store_closed: { mean: -3, sd: 0.75 },
    ad_channel_started: { mean: 0.8, sd: 0.75 },
    ad_channel_stopped: { mean: -0.4, sd: 0.75 },
    app_installed: { mean: 0.4, sd: 0.75 },
    app_removed: { mean: -0.2, sd: 0.75 },
    agentic_feature_adopted: { mean: 0.6, sd: 0.75 },
    agentic_feature_dropped: { mean: -0.3, sd: 0.75 },
    traffic_up: { mean: 0.7, sd: 0.75 },
    traffic_down: { mean: -0.5, sd: 0.75 },
    catalogue_growth: { mean: 0.5, sd: 0.75 },
    revenue_jump: { mean: 0.7, sd: 0.75 },
    plan_upgraded: { mean: 0.8, sd: 0.75 },
    plan_downgraded: { mean: -0.6, sd: 0.75 },
  } satisfies Record<SignalType, PriorEntry>,
  /**
   * A signal's subject (which network, app, feature or plan; accounts/signal-inputs.ts): how much
   * more or less it weighs than its type, around 0. An installed or removed app's kind
   * (subscriptions, email…) starts the same.
   */
  subject: { mean: 0, sd: 0.5 },
  /**
   * A category or plan with a signal type: what the pair adds to the two apart, around 0 and
   * tight (there are a hundred or more of them), so a few labels of a pair move its weight
   * little and 200 labels do not fit their noise.
   */
  interaction: { mean: 0, sd: 0.4 },
} as const;

/**
 * The groups of inputs whose prior sd the workspace's outcomes set (fit.ts fitModel): a signal's
 * subject, an app's kind, and every pair. Their sd above (PRIOR.subject, PRIOR.interaction) is where each group
 * starts and what it is pulled back to. Whether pairs matter is the workspace's: a rule made of
 * conjunctions ("a store above the basic plan that installed a subscription app") needs them loose,
 * a propensity made of single inputs (the generator's truth) tight, or 200 outcomes fit their noise.
 * So each group's sd is estimated from the labels, the evidence approximation (MacKay 1992):
 * sd² = (Σ (β − μ)² + PSEUDO × sd₀²) ÷ (γ + PSEUDO), γ = Σ (1 − posterior var ÷ sd²) the number of
 * the group's weights the labels determine, PSEUDO inputs' worth of pull towards the starting sd₀,
 * ROUNDS refits, within [MIN, MAX]. Learning benchmark (in memory, seeds 1–10, P@50 in the list's
 * order after 200 outcomes, mostly the top): two-part rule 0.47 → 1.00, new-channel 0.68 → 0.78,
 * plan rule 0.25 → 0.52, generator truth 0.68 → 0.65; explore first 0.81 → 0.83, 0.93 → 0.91, 0.97 →
 * 0.99, 0.90 → 0.93. (Every pair at sd 0.75 instead: generator truth explore first 0.75, worst seed 0.65.)
 * A group's sd is one for all its inputs, so one subject that matters among thirty that do not (TikTok
 * and Pinterest among the networks and apps) stayed held at about the group's 0.5. So each subject
 * (OWN groups) also has its own sd around its group's: a Student-t prior with NU degrees of freedom
 * (fit.ts ownSd), heavy-tailed, so a subject the labels pull far widens alone while the others stay
 * at the group's. Learning benchmark (in memory, seeds 1–10, mostly the top, P@50 in the list's
 * order after 200 outcomes, worst seed, wins): new-channel rule 0.78 (0.45), 163.1 → 0.80 (0.47),
 * 166.7; plan rule 0.52 (0.28), 105.3 → 0.60 (0.27), 112.0; generator truth 0.65 (0.57), 87.0 →
 * 0.65 (0.55), 88.9; two-part rule 1.00, 101.5 → 1.00, 103.0. Every group's inputs with their own
 * sd (NU 1) cost the generator's truth (mostly the top 0.63, worst 0.51; explore first 0.79); NU 3
 * locked the two-part rule out in seed 10 (0.34). An app's kind has its own sd too (KIND in OWN):
 * with the kinds' group sd alone the subscriptions kind stayed held as TikTok had (plan rule, seeds
 * 1–3, 0.51 against 0.84 with its own). With the app's kind (same benchmark, seeds 1–10, mostly the
 * top): plan rule 0.60 (0.27), 112.0 → 0.76 (0.50), 119.0; new-channel 0.80 (0.47), 166.7 → 0.78
 * (0.50), 164.8; generator truth 0.65 (0.55), 88.9 → 0.68 (0.60), 84.7; two-part 1.00, 103.0 → 0.98
 * (0.83), 101.7 (docs/measurements/learning.md).
 */
/*
 * A store's standing that a subject is about (the app it has, the network it advertises on, the
 * agentic feature it has: app:recharge for subject:app_installed:recharge) is not in a group, but
 * shares its spread with its subjects (fit.ts standingSd), the same Student-t step over the
 * standing input and its subjects together.
 */
export const LEARNED_SD = { groups: [SUBJECT, KIND, CATEGORY_SIGNAL, PLAN_SIGNAL, CATEGORY_ADS], pseudo: 5, rounds: 6, min: 0.2, max: 2, own: [SUBJECT, KIND], nu: 1 } as const;
export type { PriorSds } from './model-types.js';

export type SizeKey = keyof typeof PRIOR.size;
/** The panel column behind each size input. */
export const SIZE_COLUMN: Record<SizeKey, 'monthly_visits' | 'est_monthly_revenue_usd' | 'product_count'> = {
  visits: 'monthly_visits',
  revenue: 'est_monthly_revenue_usd',
  products: 'product_count',
};

/**
 * The prior of an input, by its key: the starting weighting inputSpace gives it, or with `learned`
 * (a fitted model's PriorSds) the sd the outcomes set for its group.
 */
export function priorOf(key: string, learned?: PriorSds): { mean: number; sd: number } {
  const start = startingPrior(key);
  const sd = learned?.[key] ?? learned?.[splitKey(key)[0]];
  return sd === undefined ? start : { mean: start.mean, sd };
}

function startingPrior(key: string): { mean: number; sd: number } {
  const [group, name] = splitKey(key);
  switch (group) {
    case 'intercept':
      return PRIOR.intercept;
    case 'country':
    case 'category':
    case 'plan':
    case 'app':
    case 'ads':
    case 'agentic':
      return PRIOR[group];
    case 'size':
      return PRIOR.size[name as keyof typeof PRIOR.size];
    case SUBJECT:
    case KIND:
      return PRIOR.subject;
    case CATEGORY_SIGNAL:
    case PLAN_SIGNAL:
    case CATEGORY_ADS:
      return PRIOR.interaction;
    default: {
      const earlier = name.endsWith(':earlier');
      const p = PRIOR.signal[(earlier ? name.slice(0, -':earlier'.length) : name) as keyof typeof PRIOR.signal];
      return earlier ? { mean: p.mean * EARLIER, sd: p.sd * EARLIER } : p;
    }
  }
}

/** An input in plain words. */
export function labelOf(key: string): string {
  const [group, name] = splitKey(key);
  switch (group) {
    case 'intercept':
      return 'Starting point for every account';
    case 'country':
      return `Based in ${name}`;
    case 'category':
      return `Sells ${name}`;
    case 'plan':
      return `On the ${name} plan`;
    case 'size':
      return { visits: 'Monthly visits', revenue: 'Estimated monthly revenue', products: 'Product count' }[name] + ' (per standard deviation of its log above the typical account)';
    case 'app':
      return `Uses the ${name} app`;
    case 'ads':
      return `Advertises on ${NETWORK_NAMES[name] ?? name}`;
    case 'agentic':
      return `Has ${FEATURE_LABELS[name as keyof typeof FEATURE_LABELS] ?? name}`;
    case SUBJECT:
    case KIND:
    case CATEGORY_SIGNAL:
    case PLAN_SIGNAL:
    case CATEGORY_ADS:
      return pairLabel(group, name);
    default: {
      const earlier = name.endsWith(':earlier');
      const type = earlier ? name.slice(0, -':earlier'.length) : name;
      const words = type.replace(/_/g, ' ');
      return `Signal: ${words[0].toUpperCase()}${words.slice(1)} (${earlier ? 'an earlier month' : 'the latest month'})`;
    }
  }
}

const AGENTIC_NAMES: Record<string, string> = {
  llms_txt: 'publishes llms.txt',
  product_schema: 'has product schema markup',
  agent_checkout: 'offers agent checkout',
  mcp_server: 'runs an MCP server',
  ai_crawlers_allowed: 'allows AI crawlers',
};

/** labelOf of the keys describeTerm has met (a first scoring describes a million accounts' terms from a few hundred keys). */
const labels = new LRUCache<string, string>({ max: 10_000 });

function cachedLabel(key: string): string {
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = labelOf(key)));
  return label;
}

/**
 * The detail of a term that follows from its input's key alone (the intercept, a country,
 * category, plan, app, ad network or agentic feature), or undefined (a size or a signal: it
 * depends on the store). A packed evidence item keeps only the key of these (accounts/evidence.ts).
 */
export function keyDetail(key: string): string | undefined {
  const [group, name] = splitKey(key);
  switch (group) {
    case 'intercept':
      return 'Starting point for every account of this workspace';
    case 'country':
    case 'category':
    case 'plan':
    case 'app':
    case 'ads':
    case CATEGORY_ADS:
      return cachedLabel(key);
    case 'agentic':
      return `The store ${AGENTIC_NAMES[name] ?? name}`;
    default:
      return undefined;
  }
}

/** The detail of a size term (`name`: a SizeKey) from the store's value `v` and the term's x. */
export function sizeDetail(name: string, v: number, x: number): string {
  const what = { visits: `${fmt(v)} monthly visits`, revenue: `about $${fmt(v)} estimated monthly revenue`, products: `${fmt(v)} products` }[name as SizeKey];
  return `${what} (${x >= 0 ? 'above' : 'below'} the typical account)`;
}

/** A store's term in plain words (its evidence item before weighting). */
export function describeTerm(input: Input, t: Term, s: StoreSnapshot): StoredEvidence {
  const [group, name] = splitKey(input.key);
  if (group === 'intercept') return { kind: 'intercept', key: 'intercept', detail: keyDetail('intercept')!, x: t.x };
  if (group === 'size') return { kind: 'feature', key: input.key, detail: sizeDetail(name, s[SIZE_COLUMN[name as SizeKey]]!, t.x), x: t.x };
  const detail = keyDetail(input.key);
  if (detail !== undefined) return { kind: 'feature', key: input.key, detail, x: t.x };
  const sig = t.signal!;
  const age = monthIndex(s.month) - monthIndex(sig.month);
  const when = `${sig.month}${age > 0 ? `, ${age} month${age > 1 ? 's' : ''} before its latest data` : ''}`;
  return { kind: 'signal', key: input.key, detail: group === SUBJECT || group === KIND || group === CATEGORY_SIGNAL || group === PLAN_SIGNAL ? pairDetail(group, name, sig, when) : `${sig.detail} (${when})`, x: t.x, month: sig.month };
}

export const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
};

/** A whole number with thousands separators (1,082): the separators put in by hand, a regular expression's cost at a million accounts. */
function fmt(v: number): string {
  const s = String(Math.round(v));
  const sign = s[0] === '-' ? 1 : 0;
  if (!Number.isFinite(v) || s.includes('e')) return s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let out = s.slice(0, sign + ((s.length - sign) % 3 || 3));
  for (let i = out.length; i < s.length; i += 3) out += ',' + s.slice(i, i + 3);
  return out;
}
