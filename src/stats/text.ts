/** Ids, anchors, sentences and citations of stats: pure text, one place. */
import { createHash } from 'node:crypto';
import { formatMonth as monthText, formatValue } from './format.js';
import { FLOOR } from './floor.js';
import type { MetricDef, PageDef } from './registry.js';
import { PUBLISHER } from './types.js';

/** `all`, or `{name}:{value}`. */
export function dimensionString(name: string | null, value: string | null): string {
  return name === null ? 'all' : `${name}:${value}`;
}

export const statId = (metricKey: string, dimension: string): string => `${metricKey}:${dimension}`;

/** URL-safe slug of the id plus 6 hex of its sha256, so distinct ids never share an anchor. */
const anchors = new Map<string, string>();

export function anchorOf(id: string): string {
  let anchor = anchors.get(id);
  if (anchor === undefined) {
    anchor = makeAnchor(id);
    if (anchors.size > 200_000) anchors.clear();
    anchors.set(id, anchor);
  }
  return anchor;
}

function makeAnchor(id: string): string {
  const slug = id
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 6);
  return `${slug || 'stat'}-${hash}`;
}

/** "stores", "stores in US", "stores in the “apparel” category" … */
export function scopeText(name: string | null, value: string | null): string {
  const v = (value ?? '').replace(/\s+/g, ' ').trim();
  switch (name) {
    case null:
      return 'stores';
    case 'country':
      return `stores in ${v}`;
    case 'category':
      return `stores in the “${v}” category`;
    case 'plan':
      return `stores on the ${v} plan`;
    case 'app':
      return `stores running ${v}`;
    default:
      return `stores with ${name} ${v}`;
  }
}

export function sentenceOf(metric: MetricDef, scope: string, month: string, value: number | null, n: number | null, noPriorMonth = false): string {
  if (value === null && noPriorMonth) {
    return `No figure “${metric.title}” for ${scope} in ${monthText(month)}: it compares with the previous month, which is not in the panel.`;
  }
  if (value === null) {
    return `The figure “${metric.title}” for ${scope} in ${monthText(month)} is suppressed to protect small samples (publication floor: ${FLOOR} stores).`;
  }
  const text = formatValue(value, metric);
  return metric.sentence
    .replaceAll('{value}', text)
    .replaceAll('{Scope}', scope[0].toUpperCase() + scope.slice(1))
    .replaceAll('{scope}', scope)
    .replaceAll('{month}', monthText(month))
    .replaceAll('{n}', n === null ? '' : String(n));
}

export function citationOf(page: PageDef, metric: MetricDef, scope: string, month: string, url: string): string {
  return `${PUBLISHER}, “${page.title}: ${metric.title}” (${scope}), ${monthText(month)}, ${url}. Licensed CC BY 4.0.`;
}
