/**
 * Hand-built panels: stores spelled out by country, with the months they are active in and the
 * features they have, written as panel CSV files. For disclosure tests with cells of exactly
 * 29, 30 and 31 stores.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';

export interface HandStore {
  id: string;
  country: string;
  category: string;
  /** months the store is active, ascending */
  months: string[];
  /** agentic flags that are true (every other flag is false) */
  flags?: string[];
}

/** `count` stores of one country and category, active in `months`. */
export function stores(prefix: string, count: number, country: string, category: string, months: string[], flags: string[] = []): HandStore[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${String(i).padStart(4, '0')}`, country, category, months, flags }));
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

export async function writePanel(dir: string, all: HandStore[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const months = [...new Set(all.flatMap((s) => s.months))].sort();
  const header = PANEL_COLUMNS.map((c) => c.name);
  for (const month of months) {
    const lines = [header.join(',')];
    for (const s of all) {
      if (!s.months.includes(month)) continue;
      const row: Record<string, string> = {
        store_id: s.id,
        domain: `${s.id}.myshopify.com`,
        country: s.country,
        category: s.category,
        plan: 'basic',
        created_month: s.months[0] === month && month !== months[0] ? month : '2020-01',
        product_count: '10',
        monthly_visits: '100',
        est_monthly_revenue_usd: '100.00',
        apps: 'klaviyo',
      };
      for (const c of PANEL_COLUMNS) if (c.type === 'boolean') row[c.name] = String(s.flags?.includes(c.name) ?? false);
      lines.push(header.map((h) => csvCell(row[h] ?? '')).join(','));
    }
    await writeFile(path.join(dir, `${month}.csv`), lines.join('\n') + '\n');
  }
}
