/**
 * The DuckDB edge of the statistics: one pass per month over the panel joined to the same
 * stores' previous month, grouped by every dimension at once. Returns exact integers and
 * decimal sums as plain numbers (stats/aggregate.ts); everything after this is pure.
 */
import { emptyCell, compareValues, type Cell, type MonthAgg } from '../stats/aggregate.js';
import { deltaKind, METRICS, PAGES, type MetricDef } from '../stats/registry.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, DIMENSIONS, monthIndex, PANEL_COLUMNS, PLANS, type DimensionName } from '../core/panel-contract.js';
import { ident, lit, toNumber, type Duck } from './duck.js';
import { FINGERPRINT_COLUMNS, fingerprintOf, fingerprintTable } from './fingerprint.js';
import { SIGNAL_INPUT_COLUMNS } from './signals.js';
import { CliError } from '../core/errors.js';

/** Macros the registry's SQL uses. */
export async function registerMacros(duck: Duck): Promise<void> {
  await duck.run(`CREATE OR REPLACE MACRO plan_rank(p) AS list_position([${PLANS.map(lit).join(', ')}], p)`);
}

/** Columns the trend metrics read from the previous month, as `prev_*`. */
export const PREV_COLUMNS = ['plan', 'apps', 'product_count', 'monthly_visits', ...AD_COLUMNS, ...AGENTIC_COLUMNS];

/** A trend metric: its input compares the store with itself in the previous month (`prev_*`). */
const readsPrevious = (m: MetricDef): boolean => /\bprev_/.test(`${m.input} ${m.eligible ?? ''}`);
/** Metrics computed from a month's own row, and those that need the previous month's row too. */
const OWN = METRICS.filter((m) => !readsPrevious(m));
const TRENDS = METRICS.filter(readsPrevious);
// A trend's own previous value would need the month before the previous one: its delta is
// taken cell against cell, which needs no matched cohort (stats/build.ts).
for (const m of TRENDS) if (deltaKind(m) !== 'cell') throw new Error(`metric ${m.key} reads the previous month, so its delta must compare cells`);

/**
 * The panel column an input reads as it is (or TRUE): such an input is not copied into a month's
 * facts but read in place, which keeps the facts and the join's build side narrow.
 */
const inPlace = (m: MetricDef): string | null =>
  m.eligible === undefined && (m.input === 'TRUE' || PANEL_COLUMNS.some((c) => c.name === m.input)) ? m.input : null;
/** Inputs computed once into a month's own facts. */
const COMPUTED = OWN.filter((m) => !inPlace(m));
/** Inputs read in place, and the panel columns such inputs of `metrics` read. */
const IN_PLACE = OWN.filter(inPlace);
const columnsReadInPlace = (metrics: readonly MetricDef[]): string[] =>
  metrics.map(inPlace).filter((c): c is string => c !== null && c !== 'TRUE');

/**
 * A metric's input in a month's facts `side` (`c` this month, `p` the previous month, TRUE only
 * where the store is present): its column when read in place, else the computed `in_*`.
 */
function inputOf(m: MetricDef, side: 'c' | 'p'): string {
  const column = inPlace(m);
  if (column === null) return `${side}.in_${m.key}`;
  if (column !== 'TRUE') return `${side}.${ident(column)}`;
  return side === 'c' ? 'TRUE' : 'CASE WHEN p.store_id IS NOT NULL THEN TRUE END';
}

/** A metric's input and eligibility as SELECT columns (`in_*`, `el_*`). */
const inputColumns = (metrics: readonly MetricDef[]): string =>
  metrics.map((m) => `(${m.input}) AS in_${m.key}` + (m.eligible ? `, (${m.eligible}) AS el_${m.key}` : '')).join(',\n      ');

/** The columns of a month's typed rows the aggregation itself reads beside its inputs. */
const AGGREGATED_COLUMNS = [...new Set(['store_id', ...DIMENSIONS, ...PREV_COLUMNS, ...columnsReadInPlace(OWN)])];

/** What a month's own facts hold: what aggregating it reads and what signals and a kept state read, what aggregating it reads, or only what the next month reads of it. */
type FactsWidth = 'signals' | 'aggregated' | 'previous only';

/** Metrics whose delta compares a store with its own previous input: the next month reads their inputs. */
const CARRIED = METRICS.filter((m) => deltaKind(m) === 'cohort');
/** The panel columns the next month's statistics read of a month: its trends and cohorts. */
const PREVIOUS_COLUMNS = [...new Set(['store_id', ...PREV_COLUMNS, ...columnsReadInPlace(CARRIED)])];
/** What a kept store state holds: those, and what the next month's signals (the runs) read. */
const STATE_COLUMNS = [...new Set([...PREVIOUS_COLUMNS, ...SIGNAL_INPUT_COLUMNS])];
const CARRIED_INPUTS = COMPUTED.filter((m) => CARRIED.includes(m)).flatMap((m) => [`in_${m.key}`, ...(m.eligible ? [`el_${m.key}`] : [])]);
/**
 * A month whose signals are written (or that a signalled month compares with) or whose state is
 * kept: what aggregating it reads, and what the signals read. Not every column: the runs copy
 * the panel file for the stores' other columns (the domain, a distinct text in every row, most).
 */
const WITH_SIGNAL_INPUTS = [...new Set([...AGGREGATED_COLUMNS, ...STATE_COLUMNS])];

/**
 * The SELECT of what the month after reads of a month's facts (`facts`, made here at
 * 'signals'): its store state. Kept, it stands for that month's facts, so the next month
 * is aggregated and its signals written without reading this month's panel file (MonthStates).
 */
export const stateSql = (facts: string): string => `SELECT ${[...STATE_COLUMNS.map(ident), ...CARRIED_INPUTS].join(', ')} FROM ${facts}`;

/**
 * One month's own facts: its typed panel rows and the input and eligibility of every metric
 * computed from the row alone, but those read in place (inPlace). `width` says which columns:
 * 'aggregated', those the aggregation and the next month's trends read; 'signals', those and
 * what a month's signals and its kept state read (the runs: panel/runs.ts); 'previous only' (a
 * month loaded only as the one before another), the store id and what the next month reads of
 * it. With `fingerprint`, also each row's fingerprint bucket and hash (fingerprint.ts).
 */
function ownFactsSql(rows: string, fingerprint: boolean, width: FactsWidth): string {
  const previousOnly = width === 'previous only';
  const inputs = previousOnly ? COMPUTED.filter((m) => CARRIED.includes(m)) : COMPUTED;
  const columns = {
    // The month is known to every reader (a constant column would be copied for every row).
    signals: WITH_SIGNAL_INPUTS,
    aggregated: AGGREGATED_COLUMNS,
    'previous only': PREVIOUS_COLUMNS,
  }[width];
  return `
    SELECT ${columns.map(ident).join(', ')}
      ${fingerprint ? `, ${FINGERPRINT_COLUMNS}` : ''}
      ${inputs.length ? `, ${inputColumns(inputs)}` : ''}
    FROM ${rows}`;
}

/**
 * A month's facts (`own`) beside the same stores' facts of the previous month (`prev`, or
 * none when that month is not loaded): the inputs read in place as `in_*`, the previous
 * month's columns as `prev_*` (with `prev_present`, NULL when the previous month is unknown),
 * its inputs as `p_in_*`/`p_el_*` and `p_store_id`, then the trend metrics' inputs. One join
 * per month serves every metric. `metrics` narrows the inputs added and the previous inputs
 * carried; `unnestApps` adds one row per installed app.
 */
function joined(own: string, prev: string | null, metrics: readonly MetricDef[], unnestApps = false): string {
  // Only a cohort delta compares a store's input with its own previous one (aggregateColumns).
  const carried = metrics.filter((m) => CARRIED.includes(m));
  const trends = metrics.filter(readsPrevious);
  const prevInputs = carried.map((m) => `${inputOf(m, 'p')} AS p_in_${m.key}` + (m.eligible ? `, p.el_${m.key} AS p_el_${m.key}` : ''));
  const ownInputs = IN_PLACE.filter((m) => metrics.includes(m)).map((m) => `${inputOf(m, 'c')} AS in_${m.key}`);
  // Without the previous month, its columns are NULL (typed like this month's) and so is prev_present.
  const from = prev ?? `(SELECT * FROM ${own} LIMIT 0)`;
  const present = prev ? 'p.store_id IS NOT NULL' : 'CAST(NULL AS BOOLEAN)';
  const previous = [...ownInputs, `p.store_id AS p_store_id`, `${present} AS prev_present`, ...PREV_COLUMNS.map((c) => `p.${c} AS prev_${c}`), ...prevInputs].join(', ');
  const pair = `(SELECT c.*, ${previous} FROM ${own} c LEFT JOIN ${from} p ON p.store_id = c.store_id)`;
  const facts = trends.length ? `(SELECT *, ${inputColumns(trends)} FROM ${pair})` : pair;
  // Unnested after the join: the join probes each store once, not once per app.
  return unnestApps ? `(SELECT *, unnest(apps) AS app FROM ${facts})` : facts;
}

/** One aggregate column: its alias, its SQL over facts rows, and whether it is a sum (exact decimal or huge integer) rather than a count. */
interface AggregateColumn {
  alias: string;
  expr: string;
  sum: boolean;
}

/**
 * The sums of each metric. Written so that metrics without an eligibility rule share the plain
 * counts (`count(*)`, `count(p_store_id)`), which DuckDB computes once for all of them.
 */
function aggregateColumns(metrics: readonly MetricDef[]): AggregateColumn[] {
  const and = (...conds: Array<string | false>) => conds.filter(Boolean).join(' AND ') || 'TRUE';
  // The cheapest form of each: count(*) and count(x) need no per-row expression; DuckDB
  // computes an aggregate that several metrics share (count(p_store_id)) once.
  const countOf = (c: Array<string | false>): string => {
    const conds = c.filter(Boolean) as string[];
    if (conds.length === 0) return 'count(*)';
    const known = conds.length === 1 ? /^(\w+) IS NOT NULL$/.exec(conds[0]) : null;
    return known ? `count(${known[1]})` : `count_if(${and(...conds)})`;
  };
  return metrics.flatMap((m) => {
    const k = m.key;
    const cur = `in_${k}`;
    const prev = `p_in_${k}`;
    const el = m.eligible !== undefined && `el_${k}`;
    const pel = m.eligible !== undefined && `p_el_${k}`;
    const countIf = (alias: string, ...c: Array<string | false>): AggregateColumn => ({ alias: `${alias}:${k}`, expr: countOf(c), sum: false });
    const sumIf = (alias: string, x: string, ...c: Array<string | false>): AggregateColumn => ({
      alias: `${alias}:${k}`,
      expr: c.some(Boolean) ? `sum(CASE WHEN ${and(...c)} THEN ${x} END)` : `sum(${x})`,
      sum: true,
    });
    const out = [countIf('e', el), countIf('cohort_n', el, 'p_store_id IS NOT NULL')];
    if (m.kind === 'count') {
      out.push(countIf('n', el), countIf('num', el, cur));
    } else if (deltaKind(m) === 'cell') {
      // A whole-cell delta needs no matched cohort: matched, cur_sum and prev_sum stay 0.
      out.push(countIf('n', el, `${cur} IS NOT NULL`), m.kind === 'mean' ? sumIf('num', cur, el) : countIf('num', el, cur));
    } else {
      const both = [el, pel, `${cur} IS NOT NULL`, `${prev} IS NOT NULL`] as const;
      out.push(countIf('n', el, `${cur} IS NOT NULL`), countIf('matched', ...both));
      if (m.kind === 'mean') out.push(sumIf('num', cur, el), sumIf('cur_sum', cur, ...both), sumIf('prev_sum', prev, ...both));
      else out.push(countIf('num', el, cur), countIf('cur_sum', ...both, cur), countIf('prev_sum', ...both, prev));
    }
    return out;
  });
}

/** The aggregates as SELECT columns over facts rows; sums come back as exact text. */
const aggregates = (metrics: readonly MetricDef[]): string =>
  aggregateColumns(metrics)
    .map((c) => `${c.sum ? `CAST(${c.expr} AS VARCHAR)` : c.expr} AS "${c.alias}"`)
    .join(',\n      ');

function toCell(row: Record<string, unknown>, value: string | null, metrics: readonly MetricDef[], month: string): Cell {
  const cell: Cell = { value, stores: toNumber(row.stores), cohort: toNumber(row.cohort), metrics: new Map() };
  for (const m of metrics) {
    const get = (f: string) => {
      try {
        return toNumber(row[`${f}:${m.key}`]);
      } catch {
        // A sum past 2^53 comes of a value no store has (a count of 9e18): bad input, said so.
        throw new CliError(`month ${month}: the figures of ${m.key} add up past what publish counts exactly (${String(row[`${f}:${m.key}`])}): a value in ${month}'s file is far too large; nothing was published`);
      }
    };
    cell.metrics.set(m.key, {
      e: get('e'), n: get('n'), num: get('num'), cohort_n: get('cohort_n'),
      matched: get('matched'), cur_sum: get('cur_sum'), prev_sum: get('prev_sum'),
    });
  }
  return cell;
}

/** Every metric × every cell of the given months (panel/read.ts's loadPanel holds them: the view `panel` and the table `panel_months`). */
export async function aggregateMonths(duck: Duck, months: string[]): Promise<Map<string, MonthAgg>> {
  return (await aggregatePanel(duck, months)).aggs;
}

export interface PanelAggregates {
  aggs: Map<string, MonthAgg>;
  /** month → fingerprint (panel/fingerprint.ts), for the months asked */
  fingerprints: Map<string, string>;
}

/**
 * Store states (stateSql) kept between runs: `read`, month → a relation (a Parquet file read in
 * place) standing for that month's facts, the month not being loaded; `keep`, a month whose
 * state is written to `file` as its facts are made (when it holds stores).
 */
export interface MonthStates {
  read?: ReadonlyMap<string, string>;
  keep?: { month: string; file: string };
}

/** Months whose typed rows someone else reads in the same pass (the runs: publish/compute.ts). */
export interface MonthVisit {
  months: readonly string[];
  /** called once per month, in order, with its typed rows and the previous month's (null when there is none to compare with: not loaded, or this month or that one holds no stores) */
  each: (month: string, cur: string, prev: string | null) => Promise<void>;
}

/**
 * Every metric × every cell of `months`, and the fingerprints of `fingerprinted`, reading each
 * loaded month of the view `panel` once (`panel_months` lists the months holding stores,
 * both from loadPanel): months are taken in order, each month's own facts
 * held while the next month needs them (two months at a time). A month is aggregated beside
 * the previous month's facts, joined once: trends need no month before that. `visit` hands the
 * same tables to another reader of the months (the runs), so no month is read twice.
 */
export async function aggregatePanel(
  duck: Duck,
  months: string[],
  fingerprinted: readonly string[] = [],
  onMonth?: (month: string) => void,
  visit?: MonthVisit,
  states: MonthStates = {},
): Promise<PanelAggregates> {
  const present = new Set((await duck.all<{ mi: number }>(`SELECT mi FROM panel_months`)).map((r) => toNumber(r.mi)));
  // A kept state exists only of a month that holds stores.
  const stateOf = new Map([...(states.read ?? [])].map(([m, rel]) => [monthIndex(m), rel]));
  for (const mi of stateOf.keys()) present.add(mi);
  const keep = states.keep && monthIndex(states.keep.month);
  const wanted = new Set(months.map(monthIndex));
  const visited = new Set((visit?.months ?? []).map(monthIndex));
  const fingerprint = new Set(fingerprinted);
  // Months whose own facts are made: every aggregated or visited month, and the loaded month before each.
  const held = new Set([...wanted, ...visited]);
  for (const mi of [...held]) if (present.has(mi - 1)) held.add(mi - 1);
  const read = new Set([...held, ...fingerprinted.map(monthIndex)]);
  const appMetrics = METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp);
  const facts = (mi: number) => `agg_facts_${mi}`;
  const aggs = new Map<string, MonthAgg>();
  const fingerprints = new Map<string, string>();
  // The facts made, as tables, or as views of a kept state.
  const made = new Map<string, 'TABLE' | 'VIEW'>();
  const drop = async (name: string) => {
    await duck.run(`DROP ${made.get(name)} IF EXISTS ${name}`);
    made.delete(name);
  };
  try {
    for (const mi of [...read].sort((a, b) => a - b)) {
      const month = monthOf(mi);
      const rows = `(SELECT * FROM panel WHERE mi = ${mi})`;
      if (stateOf.has(mi)) {
        await duck.run(`CREATE OR REPLACE TEMP VIEW ${facts(mi)} AS SELECT * FROM ${stateOf.get(mi)}`);
        made.set(facts(mi), 'VIEW');
      } else if (held.has(mi)) {
        // A visited month and the month before it are read by the visitor's signals too, and a
        // kept state holds the signals' columns.
        const withSignals = visited.has(mi) || visited.has(mi + 1) || mi === keep;
        const width: FactsWidth = withSignals ? 'signals' : wanted.has(mi) || fingerprint.has(month) ? 'aggregated' : 'previous only';
        await duck.run(`CREATE OR REPLACE TEMP TABLE ${facts(mi)} AS ${ownFactsSql(rows, fingerprint.has(month), width)}`);
        made.set(facts(mi), 'TABLE');
        if (fingerprint.has(month)) fingerprints.set(month, await fingerprintOf(duck, facts(mi)));
        if (mi === keep && present.has(mi)) await duck.run(`COPY (${stateSql(facts(mi))}) TO ${lit(states.keep!.file)} (FORMAT parquet)`);
      } else if (fingerprint.has(month)) {
        fingerprints.set(month, await fingerprintTable(duck, rows));
      }
      // A month without stores is no previous month, aggregated in this call or not, and has none
      // (its statistics are empty either way; its signals compare it with nothing).
      const prev = made.has(facts(mi - 1)) && present.has(mi - 1) && present.has(mi) ? facts(mi - 1) : null;
      if (wanted.has(mi)) {
        onMonth?.(month);
        aggs.set(month, await aggregateMonth(duck, month, present.has(mi - 1), joined(facts(mi), prev, METRICS), joined(facts(mi), prev, appMetrics, true), appMetrics));
      }
      if (visited.has(mi)) await visit!.each(month, facts(mi), prev);
      if (made.has(facts(mi - 1))) await drop(facts(mi - 1));
    }
  } finally {
    for (const name of [...made.keys()]) await drop(name);
  }
  return { aggs, fingerprints };
}

const monthOf = (mi: number): string => `${Math.floor(mi / 12)}-${String((mi % 12) + 1).padStart(2, '0')}`;

/** One month's cells: every breakdown of every metric, then every app of the apps page's metrics. */
async function aggregateMonth(duck: Duck, month: string, hasPrior: boolean, rel: string, appRel: string, appMetrics: readonly MetricDef[]): Promise<MonthAgg> {
  const groups = new Map<DimensionName, Cell[]>([...DIMENSIONS.map((d) => [d, []] as [DimensionName, Cell[]]), ['app', []]]);
  const agg: MonthAgg = { month, hasPrior, all: emptyCell(), groups };
  // Once at the finest cell (country × category × plan), then rolled up: every figure is a
  // count or an exact sum, so the roll-up's sums are the same numbers as summing the rows.
  const columns = aggregateColumns(METRICS);
  await duck.run(`
    CREATE OR REPLACE TEMP TABLE agg_finest AS
    SELECT country, category, plan, count(*) AS stores, count(p_store_id) AS cohort,
      ${columns.map((c) => `${c.expr} AS "${c.alias}"`).join(',\n      ')}
    FROM ${rel} c
    GROUP BY country, category, plan`);
  const dims = DIMENSIONS.map((d) => `GROUPING(${d}) AS ${ident('g_' + d)}`).join(', ');
  const distinct = [...new Map(columns.map((c) => [c.alias, c])).values()];
  const rows = await duck.all(`
    SELECT ${dims}, country, category, plan, sum(stores) AS stores, sum(cohort) AS cohort,
      ${distinct.map((c) => `${c.sum ? `CAST(sum("${c.alias}") AS VARCHAR)` : `sum("${c.alias}")`} AS "${c.alias}"`).join(',\n      ')}
    FROM agg_finest
    GROUP BY GROUPING SETS ((), ${DIMENSIONS.map((d) => `(${d})`).join(', ')})`);
  await duck.run(`DROP TABLE agg_finest`);
  for (const row of rows) {
    const dim = DIMENSIONS.find((d) => toNumber(row['g_' + d]) === 0);
    if (!dim) agg.all = toCell(row, null, METRICS, month);
    else agg.groups.get(dim)!.push(toCell(row, (row[dim] as string | null) ?? null, METRICS, month));
  }
  const appRows = await duck.all(`
    SELECT app, count(*) AS stores, count(p_store_id) AS cohort, ${aggregates(appMetrics)}
    FROM ${appRel} c
    GROUP BY app`);
  for (const row of appRows) agg.groups.get('app')!.push(toCell(row, row.app as string, appMetrics, month));
  for (const cells of agg.groups.values()) cells.sort((a, b) => compareValues(a.value, b.value));
  return agg;
}
