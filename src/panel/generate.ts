/**
 * A deterministic synthetic panel, generated inside DuckDB. Every random draw is a hash of
 * (seed, store, column), never `random()`, so the same seed gives byte-identical files on any
 * number of threads.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { lit, type Duck } from './duck.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, monthRange, PLANS, type Plan } from '../core/panel-contract.js';
import type { PanelFormat } from './read.js';
import { writeTruth, type Latent } from './truth.js';

export interface GenerateOptions {
  out: string;
  stores: number;
  from: string;
  to: string;
  seed: string;
  format: PanelFormat;
  /** Also write the hidden true propensity of every store of the last month (panel/truth.ts). */
  truth?: string;
}

/** Weighted choices: [value, weight]. Small weights make cells that fall under the floor. */
const COUNTRIES: Array<[string, number]> = [
  ['US', 40], ['GB', 10], ['CA', 7], ['AU', 6], ['DE', 6], ['FR', 4], ['NL', 3], ['ES', 2.5], ['IT', 2.5], ['SE', 2],
  ['BR', 2], ['MX', 1.8], ['IN', 1.7], ['JP', 1.5], ['NZ', 1.4], ['IE', 1.2], ['DK', 1], ['NO', 0.9], ['BE', 0.9], ['CH', 0.8],
  ['PL', 0.7], ['ZA', 0.6], ['SG', 0.5], ['AE', 0.4], ['PT', 0.35], ['AT', 0.3], ['FI', 0.25], ['IS', 0.08], ['LU', 0.06], ['MT', 0.04],
];
const CATEGORIES: Array<[string, number]> = [
  ['apparel', 24], ['beauty', 12], ['home & garden', 10], ['food & drink', 8], ['electronics', 7], ['jewelry', 6], ['pets', 5],
  ['toys', 4], ['sports', 4], ['health', 4], ['books', 2], ['Arts, Crafts & "DIY"', 2], ['Café & Thé', 1.5],
  ['=HYPERLINK("http://x.test","deals")', 0.6], ['-Outlet', 0.5], ['+Plus Size', 0.5], ['@Home Office', 0.4],
  ['Vintage\nCollectibles', 0.3], ['Zürich Uhren', 0.2], ['  apparel', 0.1],
];
/** How many stores in a hundred start on each plan. */
const PLAN_WEIGHTS: Record<Plan, number> = { basic: 45, grow: 30, advanced: 16, plus: 9 };
const PLAN_MIX: Array<[string, number]> = PLANS.map((p) => [p, PLAN_WEIGHTS[p]]);
const APPS: Array<[string, number]> = [
  ['klaviyo', 0.38], ['shopify-inbox', 0.35], ['judgeme', 0.3], ['pagefly', 0.12], ['yotpo', 0.1], ['privy', 0.09],
  ['aftership', 0.09], ['recharge', 0.08], ['gorgias', 0.08], ['loox', 0.07], ['tidio', 0.07], ['omnisend', 0.06],
  ['gempages', 0.06], ['mailchimp', 0.05], ['smile-io', 0.05], ['route', 0.05], ['okendo', 0.04], ['shogun', 0.03],
  ['bold-subscriptions', 0.02], ['appstle', 0.02],
  ...Array.from({ length: 60 }, (_, k): [string, number] => [`app-${String(k + 1).padStart(3, '0')}`, 0.02 / (1 + k / 4)]),
];
/** Adoption of a yes/no signal at month index t: base + slope × t (monotone per store). */
const ADOPTION: Record<string, [number, number]> = {
  ads_meta: [0.42, 0.006], ads_google: [0.35, 0.005], ads_tiktok: [0.06, 0.008], ads_pinterest: [0.05, 0.002],
  llms_txt: [0.03, 0.012], product_schema: [0.38, 0.01], agent_checkout: [0.01, 0.005], mcp_server: [0.004, 0.004],
  ai_crawlers_allowed: [0.55, 0.008],
};
/** Whether a store has adopted `col` by month index t (before the month's nulls). Reads gen_store. */
const adoptedSql = (col: string, t: number): string => `(${u(lit(col))} < ${ADOPTION[col][0]} + ${ADOPTION[col][1]} * ${t})`;
/** The plan's index in PLANS order at month index t, before capping to the top plan. Reads gen_store. */
const planIndexSql = (t: number): string => {
  const planOrder: readonly string[] = PLANS;
  return `(${pick(`plan_draw / 1000.0`, PLAN_MIX.map(([p, w]) => [String(planOrder.indexOf(p)), w]))})::INT + CASE WHEN upgrade_t <= ${t} THEN 1 ELSE 0 END`;
};
/** The app ids installed at month index t (a list). Reads gen_store. */
const appsSql = (t: number): string => `list_transform(list_filter(app_plan, x -> x.m <= ${t}), x -> x.a)`;
/** What the hidden truth (panel/truth.ts) reads of the generator's latent variables. */
const LATENT: Latent = { planOrder: PLANS, planIndexSql, appsSql, adoptedSql };

/** The contact source beside the panel (contacts/source.ts): a few people at about one store in six. */
const CONTACT_SHARE = 0.16;
const FIRST_NAMES = ['Ana', 'Ben', 'Chloé', 'Dev', 'Emma', 'Femi', 'Grace', 'Hiro', 'Ines', 'Jon', 'Kai', 'Lena', 'Mo', 'Nia', 'Omar', 'Priya'];
const LAST_NAMES = ['Silva', 'Okafor', 'Müller', 'Smith', 'Tanaka', "O'Brien", 'García', 'Nguyen', 'Kowalski', 'Haddad'];
const ROLES: Array<[string, number]> = [['Founder', 5], ['CEO', 3], ['Head of Marketing', 3], ['Buyer', 2], ['Operations', 2], ['=Ops, "Lead"', 0.3], ['-', 0.2]];
const SOURCES: Array<[string, number]> = [['company site', 5], ['trade fair 2025', 2], ['press release', 2], ['partner referral', 1], ['+imported, "legacy"', 0.2]];

/**
 * Writes the contact source (contacts.csv) to `to` from gen_store: 1–3 contacts for about CONTACT_SHARE of the stores, each
 * with an email at the store's domain (some with the domain in capitals, which ingest
 * normalises), and now and then a hostile name, role or source.
 */
async function writeContacts(duck: Duck, to: string): Promise<void> {
  const first = `[${FIRST_NAMES.map(lit).join(', ')}][1 + floor(u(i, 'cf' || k) * ${FIRST_NAMES.length})::INT]`;
  const last = `[${LAST_NAMES.map(lit).join(', ')}][1 + floor(u(i, 'cl' || k) * ${LAST_NAMES.length})::INT]`;
  const host = `coalesce(domain, 'shop' || i || '.example')`;
  await duck.run(`
    COPY (
      SELECT store_id, name, lower(regexp_replace(strip_accents(f), '[^A-Za-z]', '', 'g')) || '.' || k || '@' ||
               CASE WHEN u(i, 'cu' || k) < 0.1 THEN upper(${host}) ELSE ${host} END AS email,
             role, source
      FROM (
        SELECT i, k, store_id, domain, f,
          CASE WHEN u(i, 'cn' || k) < 0.03 THEN '=HYPERLINK("http://x.test","' || f || '")' WHEN u(i, 'cn' || k) < 0.06 THEN NULL ELSE f || ' ' || l END AS name,
          ${nullIf(0.1, "'cr' || k", pick(`u(i, 'crp' || k)`, ROLES))} AS role,
          ${pick(`u(i, 'cs' || k)`, SOURCES)} AS source
        FROM (SELECT i, store_id, domain, ${first} AS f, ${last} AS l, k
              FROM gen_store, range(1 + floor(u(i, 'cnum') * 3)::INT) r(k)
              WHERE u(i, 'contacts') < ${CONTACT_SHARE})
      ) ORDER BY i, k
    ) TO ${lit(to)} (FORMAT csv, HEADER true)`);
}

/** Share of missing values per column per month. */
const NULL_RATE: Record<string, number> = {
  domain: 0.02, country: 0.01, category: 0.03, plan: 0.02, created_month: 0.02, product_count: 0.04,
  monthly_visits: 0.06, est_monthly_revenue_usd: 0.08, apps: 0.03, ads: 0.05, agentic: 0.07,
};

/** SQL CASE that picks from weighted choices with uniform draw `u`. */
function pick(u: string, choices: Array<[string, number]>): string {
  const total = choices.reduce((s, [, w]) => s + w, 0);
  let acc = 0;
  const whens = choices.map(([v, w]) => {
    acc += w / total;
    return `WHEN ${u} < ${acc.toFixed(6)} THEN ${lit(v)}`;
  });
  return `CASE ${whens.join(' ')} ELSE ${lit(choices[choices.length - 1][0])} END`;
}

/** Uniform draw in [0,1) from (seed, store, key). */
const u = (key: string) => `u(i, ${key})`;
const nullIf = (rate: number, key: string, expr: string) => `CASE WHEN ${u(key)} < ${rate} THEN NULL ELSE ${expr} END`;

export async function generatePanel(duck: Duck, o: GenerateOptions, onMonth?: (month: string) => void): Promise<string[]> {
  const months = monthRange(o.from, o.to);
  const M = months.length;
  await duck.run(`CREATE OR REPLACE MACRO u(i, k) AS (hash(${lit(o.seed)}, i, k) % 1000003) / 1000003.0`);
  const hostile = [
    `'=SUM(A1:A9)-' || i`, `'+' || i || ' plus'`, `'-' || i`, `'@shop' || i`, `'store, "quoted" ' || i`,
    `'línea' || chr(10) || 'nueva ' || i`, `'café-ünïcødé-' || i`, `chr(9) || 'tab' || i`,
  ];
  const catalog = `[${APPS.map(([a, p]) => `{'a': ${lit(a)}, 'p': ${p}}`).join(', ')}]`;
  // The store numbers as a table first: DuckDB reads a table with every thread, where the
  // draws over range() kept one core busy (ten million stores: minutes).
  await duck.run(`CREATE OR REPLACE TEMP TABLE gen_ids AS SELECT range AS i FROM range(${o.stores})`);
  await duck.run(`
    CREATE OR REPLACE TABLE gen_store AS
    WITH base AS (
      SELECT i,
        CASE WHEN ${u("'birth'")} < 0.72 OR ${M} = 1 THEN 0 ELSE 1 + floor(${u("'birthm'")} * ${Math.max(M - 1, 1)})::INT END AS b,
        exp(1.6 * (${u("'s1'")} + ${u("'s2'")} + ${u("'s3'")} - 1.5)) AS s
      FROM gen_ids
    )
    SELECT i, b, s,
      CASE WHEN ${u("'death'")} < 0.12 THEN b + 1 + floor(${u("'deathm'")} * ${M})::INT ELSE ${M} END AS d,
      CASE WHEN ${u("'hostile'")} < 0.004 THEN CASE i % 8 ${hostile.map((h, k) => `WHEN ${k} THEN ${h}`).join(' ')} END
           ELSE 'st' || lpad(i::VARCHAR, 7, '0') END AS store_id,
      ${nullIf(NULL_RATE.domain, "'domain'", `CASE WHEN ${u("'dom'")} < 0.55 THEN 'st' || i || '.myshopify.com' ELSE 'shop' || i || '.' || ${pick(u("'tld'"), [['com', 6], ['co.uk', 1], ['de', 1], ['store', 1]])} END`)} AS domain,
      ${nullIf(NULL_RATE.country, "'country'", pick(u("'c'"), COUNTRIES))} AS country,
      ${nullIf(NULL_RATE.category, "'category'", pick(u("'cat'"), CATEGORIES))} AS category,
      floor(${u("'plan'")} * 1000)::INT AS plan_draw,
      CASE WHEN ${u("'upg'")} < 0.1 THEN floor(${u("'upgm'")} * ${M})::INT END AS upgrade_t,
      ${nullIf(NULL_RATE.created_month, "'cm'", `CASE WHEN b > 0 THEN NULL ELSE strftime(DATE ${lit(o.from + '-01')} - to_months(1 + floor(${u("'age'")} * 96)::INT), '%Y-%m') END`)} AS past_created,
      ${u("'cm'")} < ${NULL_RATE.created_month} AS created_unknown,
      list_transform(list_filter(${catalog}, c -> u(i, c.a) < c.p * least(2.0, 0.5 + s / 2)),
                     c -> {'a': c.a, 'm': floor(u(i, c.a || ':m') * ${M + 6})::INT - 6}) AS app_plan
    FROM base`);

  await mkdir(o.out, { recursive: true });
  const staged = new StagedFiles();
  try {
    await writeMonths(duck, o, months, staged, onMonth);
    await writeContacts(duck, staged.at(path.join(o.out, 'contacts.csv')));
    if (o.truth) await writeTruth(duck, o.truth, staged.at(o.truth), M, LATENT);
    await staged.moveIn();
  } catch (e) {
    await staged.discard();
    throw e;
  } finally {
    await duck.run(`DROP TABLE IF EXISTS gen_store`).catch(() => {});
    await duck.run(`DROP TABLE IF EXISTS gen_ids`).catch(() => {});
  }
  return months.map((month) => path.join(o.out, `${month}.${o.format}`));
}

/**
 * Files written beside their place (`<file>.tmp`) and moved in together once every one is
 * written: a run that fails or is stopped half way leaves the folder as it found it (a panel
 * missing its later months would publish as it is).
 */
class StagedFiles {
  private readonly files: string[] = [];

  /** Where to write `file` until moveIn. */
  at(file: string): string {
    this.files.push(file);
    return `${file}.tmp`;
  }

  async moveIn(): Promise<void> {
    for (const file of this.files) await rename(`${file}.tmp`, file);
  }

  async discard(): Promise<void> {
    await Promise.all(this.files.map((file) => rm(`${file}.tmp`, { force: true })));
  }
}

/** Each month's file of the panel, from gen_store. */
async function writeMonths(duck: Duck, o: GenerateOptions, months: readonly string[], staged: StagedFiles, onMonth?: (month: string) => void): Promise<void> {
  const M = months.length;
  const planOrder: readonly string[] = PLANS;
  for (let t = 0; t < M; t++) {
    const month = months[t];
    onMonth?.(month);
    const mu = (key: string) => `u(i, ${lit(key)} || ':${t}')`;
    const monthNull = (rate: number, key: string, expr: string) => `CASE WHEN ${mu(key)} < ${rate} THEN NULL ELSE ${expr} END`;
    const adopt = (col: string, nullRate: number) =>
      `${monthNull(nullRate, col + ':null', `${u(lit(col))} < ${ADOPTION[col][0]} + ${ADOPTION[col][1]} * ${t}`)} AS ${col}`;
    const planIdx = planIndexSql(t);
    const select = `
      SELECT store_id, domain, country, category,
        ${monthNull(NULL_RATE.plan, 'plan', `[${planOrder.map(lit).join(', ')}][least(${planIdx}, ${planOrder.length - 1}) + 1]`)} AS plan,
        CASE WHEN created_unknown THEN NULL WHEN b > 0 THEN [${months.map(lit).join(', ')}][b + 1] WHEN ${u("'new0'")} < 0.03 THEN ${lit(months[0])} ELSE past_created END AS created_month,
        ${monthNull(NULL_RATE.product_count, 'pc', `floor(20 * s * (1 + 0.02 * ${t}) + ${mu('pcj')} * 5)::BIGINT`)} AS product_count,
        ${monthNull(NULL_RATE.monthly_visits, 'v', `floor(900 * pow(s, 1.2) * (0.85 + 0.3 * ${mu('vj')}))::BIGINT`)} AS monthly_visits,
        ${monthNull(NULL_RATE.est_monthly_revenue_usd, 'r', `round(900 * pow(s, 1.2) * 1.1 * (0.7 + 0.6 * ${mu('rj')}), 2)::DECIMAL(18,2)`)} AS est_monthly_revenue_usd,
        ${monthNull(NULL_RATE.apps, 'apps', `coalesce(nullif(array_to_string(${appsSql(t)}, ';'), ''), 'shopify-inbox')`)} AS apps,
        ${AD_COLUMNS.map((c) => adopt(c, NULL_RATE.ads)).join(',\n        ')},
        ${AGENTIC_COLUMNS.map((c) => adopt(c, NULL_RATE.agentic)).join(',\n        ')}
      FROM gen_store WHERE b <= ${t} AND d > ${t}`;
    const to = staged.at(path.join(o.out, `${month}.${o.format}`));
    const format = { csv: `(FORMAT csv, HEADER true)`, parquet: `(FORMAT parquet, COMPRESSION zstd)`, ndjson: `(FORMAT json)` }[o.format];
    await duck.run(`COPY (${select} ORDER BY i) TO ${lit(to)} ${format}`);
  }
}
