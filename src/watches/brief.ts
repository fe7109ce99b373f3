/**
 * A watch's brief: a plain-words summary of the latest checked month's changes in the watched
 * stores, as JSON and as markdown. Pure: built from the watch, its latest receipt and the
 * findings of that month that held at the latest check (a check ends those it no longer finds,
 * evaluate.ts). The receipt says which stores the watch holds: a store removed since (or one the
 * managed watch's ranking let go) is no change of the watch, even in events recorded before
 * migration 0042 that no check has ended yet.
 */
import type { WatchHealth, WatchType } from './types.js';

export interface BriefChange {
  store_id: string | null;
  domain: string | null;
  kind: string;
  level: WatchHealth;
  detail: string;
}

export interface Brief {
  object: 'watch_brief';
  watch_id: string;
  type: WatchType;
  client_name: string | null;
  month: string | null;
  run_id: string | null;
  health: WatchHealth;
  health_reason: string;
  stores_checked: number;
  summary: string;
  changes: BriefChange[];
}

export interface BriefInput {
  watch: { id: string; type: WatchType; client_name: string | null; health: WatchHealth; health_reason: string };
  receipt: { month: string; run_id: string; store_ids: readonly string[] } | undefined;
  changes: readonly BriefChange[];
}

const TITLES: Record<WatchType, string> = { managed: 'Managed watch', self_directed: 'Self-directed watch', client: 'Client watch' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function buildBrief({ watch, receipt, changes }: BriefInput): Brief {
  const checked = new Set(receipt?.store_ids);
  const storeChanges = changes.filter((c) => c.kind !== 'health_changed' && (c.store_id === null || checked.has(c.store_id)));
  const stores = new Set(storeChanges.filter((c) => c.store_id !== null).map((c) => c.store_id));
  const concerns = storeChanges.filter((c) => c.level === 'degraded' || c.level === 'failing').length;
  let summary: string;
  if (!receipt) summary = 'Not checked yet: the watch is checked after the next ingest of the panel.';
  else {
    const head = `In ${receipt.month}, ${plural(receipt.store_ids.length, 'watched store')} checked`;
    summary =
      storeChanges.length === 0
        ? `${head}: no changes. Health: ${watch.health}.`
        : `${head}: ${plural(storeChanges.length, 'change')} in ${plural(stores.size, 'store')}, ${plural(concerns, 'concern')}. Health: ${watch.health} (${watch.health_reason}).`;
  }
  return {
    object: 'watch_brief',
    watch_id: watch.id,
    type: watch.type,
    client_name: watch.client_name,
    month: receipt?.month ?? null,
    run_id: receipt?.run_id ?? null,
    health: watch.health,
    health_reason: watch.health_reason,
    stores_checked: receipt?.store_ids.length ?? 0,
    summary,
    changes: storeChanges.map(({ store_id, domain, kind, level, detail }) => ({ store_id, domain, kind, level, detail })),
  };
}

/** Markdown text of a cell: no line breaks, and the characters markdown would read as markup escaped. */
const md = (s: string): string => s.replace(/[\r\n]+/g, ' ').replace(/([\\`*_[\]<>#|])/g, '\\$1');

export function briefMarkdown(b: Brief): string {
  const title = `${TITLES[b.type]}${b.client_name ? ` for ${md(b.client_name)}` : ''}${b.month ? ` — ${b.month}` : ''}`;
  const lines = [`# ${title}`, '', `**Health:** ${b.health} — ${md(b.health_reason)}`, '', md(b.summary), ''];
  if (b.changes.length) {
    lines.push('## Changes', '');
    for (const c of b.changes) {
      const who = c.store_id === null ? 'Watch' : `**${md(c.store_id)}**${c.domain ? ` (${md(c.domain)})` : ''}`;
      const flag = c.level === 'failing' || c.level === 'degraded' ? ` _[${c.level}]_` : '';
      lines.push(`- ${who}: ${md(c.detail)}${flag}`);
    }
    lines.push('');
  }
  if (b.run_id) lines.push(`Checked against run \`${b.run_id.replace(/`/g, '')}\`.`, '');
  return lines.join('\n');
}
