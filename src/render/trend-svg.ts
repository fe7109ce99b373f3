/**
 * An inline SVG trend line of a metric's `all` series. Months are evenly spaced; a null
 * (suppressed or missing) month breaks the line, and a point with no neighbour is drawn as a
 * dot. Styled by the page's CSS classes, so it follows the colour scheme.
 */
import { escapeHtml } from './escape.js';
import { formatMonth, formatValue, type ValueFormat } from './format.js';

export interface TrendInput {
  /** Unique within the page; used for the SVG's title id. */
  id: string;
  /** The metric's human title. */
  title: string;
  series: Array<{ month: string; value: number | null }>;
  format: ValueFormat;
}

const W = 600;
const H = 170;
const LEFT = 92;
const RIGHT = 92;
const TOP = 16;
const BOTTOM = 138;

/** Fixed decimals so equal inputs give equal bytes on every platform. */
function n(x: number): string {
  return (Math.round(x * 10) / 10).toFixed(1);
}

function shortMonth(month: string): string {
  const long = formatMonth(month);
  return long === month ? month : long.slice(0, 3) + long.slice(long.indexOf(' '));
}

function domain(values: number[]): [number, number] {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  return [lo, hi];
}

function summary(input: TrendInput, points: Array<{ month: string; value: number }>): string {
  const { series, title, format } = input;
  const first = series[0];
  const last = series[series.length - 1];
  if (!first || !last) return `${title}, all stores: no months published yet.`;
  const span = first.month === last.month ? formatMonth(first.month) : `${formatMonth(first.month)} to ${formatMonth(last.month)}`;
  if (points.length === 0) return `${title}, all stores, ${span}: no published values.`;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  if (points.length === 1) return `${title}, all stores, ${span}: ${formatValue(a.value, format)} in ${formatMonth(a.month)}.`;
  return (
    `${title}, all stores, ${span}: from ${formatValue(a.value, format)} in ${formatMonth(a.month)} ` +
    `to ${formatValue(b.value, format)} in ${formatMonth(b.month)}.`
  );
}

/** `<svg role="img">` with a `<title>` that says what the line shows, for screen readers too. */
export function renderTrendSvg(input: TrendInput): string {
  const { series, format } = input;
  const titleId = `${input.id}-title`;
  const points = series.flatMap((p) => (p.value === null || !Number.isFinite(p.value) ? [] : [{ month: p.month, value: p.value }]));
  const out: string[] = [
    `<svg class="trend" role="img" aria-labelledby="${escapeHtml(titleId)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${escapeHtml(titleId)}">${escapeHtml(summary(input, points))}</title>`,
    `<line class="grid" x1="${LEFT}" y1="${TOP}" x2="${W - RIGHT}" y2="${TOP}"/>`,
    `<line class="grid" x1="${LEFT}" y1="${BOTTOM}" x2="${W - RIGHT}" y2="${BOTTOM}"/>`,
  ];
  if (points.length === 0) {
    out.push(`<text x="${W / 2}" y="${(TOP + BOTTOM) / 2}" text-anchor="middle">No published values yet</text>`, '</svg>');
    return out.join('');
  }
  const [lo, hi] = domain(points.map((p) => p.value));
  const x = (i: number) => (series.length === 1 ? (LEFT + W - RIGHT) / 2 : LEFT + (i * (W - LEFT - RIGHT)) / (series.length - 1));
  const y = (v: number) => BOTTOM - ((v - lo) / (hi - lo)) * (BOTTOM - TOP);

  out.push(
    `<text x="${LEFT - 8}" y="${TOP + 4}" text-anchor="end">${escapeHtml(formatValue(hi, format))}</text>`,
    `<text x="${LEFT - 8}" y="${BOTTOM + 4}" text-anchor="end">${escapeHtml(formatValue(lo, format))}</text>`,
  );
  // One path per run of consecutive published months.
  let run: string[] = [];
  const flush = () => {
    if (run.length > 1) out.push(`<path class="line" d="${run.join('')}"/>`);
    run = [];
  };
  series.forEach((p, i) => {
    if (p.value === null || !Number.isFinite(p.value)) return flush();
    run.push(`${run.length === 0 ? 'M' : 'L'}${n(x(i))} ${n(y(p.value))}`);
  });
  flush();
  series.forEach((p, i) => {
    if (p.value === null || !Number.isFinite(p.value)) return;
    const label = `${formatMonth(p.month)}: ${formatValue(p.value, format)}`;
    out.push(`<circle class="dot" cx="${n(x(i))}" cy="${n(y(p.value))}" r="3.5"><title>${escapeHtml(label)}</title></circle>`);
  });
  const lastIndex = series.findLastIndex((p) => p.value !== null && Number.isFinite(p.value));
  const last = series[lastIndex];
  if (last && last.value !== null) {
    out.push(
      `<text class="last" x="${n(x(lastIndex) + 8)}" y="${n(y(last.value) + 4)}">${escapeHtml(formatValue(last.value, format))}</text>`,
    );
  }
  const first = series[0]!;
  const end = series[series.length - 1]!;
  out.push(`<text x="${n(x(0))}" y="${BOTTOM + 22}" text-anchor="${series.length === 1 ? 'middle' : 'start'}">${escapeHtml(shortMonth(first.month))}</text>`);
  if (series.length > 1) {
    out.push(`<text x="${n(x(series.length - 1))}" y="${BOTTOM + 22}" text-anchor="end">${escapeHtml(shortMonth(end.month))}</text>`);
  }
  out.push('</svg>');
  return out.join('');
}
