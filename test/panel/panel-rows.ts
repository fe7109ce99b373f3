/**
 * A panel folder read in plain JavaScript (csv-parse), independently of the DuckDB reader, with
 * the input contract's conversions (DESIGN.md "Input contract", "Decisions"): empty = unknown,
 * text trimmed of spaces and NFC-normalised, countries upper-cased, apps split on `;`, sorted,
 * distinct; revenue kept as exact cents. Used to check published figures by direct computation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

export const ADS = ['ads_meta', 'ads_google', 'ads_tiktok', 'ads_pinterest'] as const;
export const AGENTIC = ['llms_txt', 'product_schema', 'agent_checkout', 'mcp_server', 'ai_crawlers_allowed'] as const;
export type Flag = (typeof ADS)[number] | (typeof AGENTIC)[number];

export interface PanelRow {
  store_id: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  created_month: string | null;
  product_count: number | null;
  monthly_visits: number | null;
  revenue_cents: number | null;
  apps: string[] | null;
  flags: Record<Flag, boolean | null>;
}

/** month → store_id → row */
export type Panel = Map<string, Map<string, PanelRow>>;

/** DuckDB's trim() removes the Unicode space separators (the space, NBSP, U+3000 …), not tabs or line breaks. */
const text = (raw: string | undefined): string | null => {
  const t = (raw ?? '').replace(/^\p{Zs}+|\p{Zs}+$/gu, '');
  return t === '' ? null : t;
};
const int = (raw: string | undefined): number | null => (text(raw) === null ? null : Number(text(raw)));
const bool = (raw: string | undefined): boolean | null => {
  const t = text(raw)?.toLowerCase() ?? null;
  return t === null ? null : t === 'true';
};

export function toRow(r: Record<string, string>): PanelRow {
  const country = text(r.country);
  const apps = text(r.apps);
  const revenue = text(r.est_monthly_revenue_usd);
  return {
    store_id: r.store_id,
    domain: text(r.domain)?.normalize('NFC') ?? null,
    country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    category: text(r.category)?.normalize('NFC') ?? null,
    plan: text(r.plan)?.normalize('NFC') ?? null,
    created_month: text(r.created_month),
    product_count: int(r.product_count),
    monthly_visits: int(r.monthly_visits),
    revenue_cents: revenue === null ? null : Math.round(Number(revenue) * 100),
    apps:
      apps === null
        ? null
        : [...new Set(apps.split(';').map((a) => a.replace(/^ +| +$/g, '')).filter((a) => a !== ''))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    flags: Object.fromEntries([...ADS, ...AGENTIC].map((f) => [f, bool(r[f])])) as Record<Flag, boolean | null>,
  };
}

/** Every `YYYY-MM.csv` of a folder. */
export function readPanel(dir: string): Panel {
  const panel: Panel = new Map();
  for (const name of readdirSync(dir).filter((n) => /^\d{4}-\d{2}\.csv$/.test(n)).sort()) {
    const records = parse(readFileSync(path.join(dir, name)), { columns: true, skip_empty_lines: false }) as Record<string, string>[];
    panel.set(name.slice(0, 7), new Map(records.map((r) => [r.store_id, toRow(r)])));
  }
  return panel;
}

/** `2026-01` → `2025-12`. */
export function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
