/**
 * The independent attack on a whole release (independent-attacker.ts) judged against the truth
 * counted from the panel files (panel-truth.ts): every breakdown, with and without assuming
 * stores keep their country and category. Imports nothing of src/stats.
 */
import { attackRelease, judge, type Bound, type Dim, type Target } from './independent-attacker.js';
import { truthOf } from './panel-truth.js';
import { readRelease } from './published-reader.js';
import { readPanel } from '../panel/panel-rows.js';

/** Store counts, returning stores, and the numerators and n of the rare features (where zeros hide). */
export const FIGURES = (t: Target) => t.figure === 'stores' || t.figure === 'returning' || /mcp_server|agent_ready|agent_checkout|plan_upgrade/.test(t.figure);

export interface AttackReport {
  /** hidden figures attacked */
  attacked: number;
  /** figures bounded inside their protection interval (or pinned), in words */
  violations: string[];
  /** JSON and CSV saying different things about one figure */
  disagreements: string[];
  /** the hidden store count with the narrowest interval found, relative to its size */
  tightest: string;
}

export interface AttackAllOptions {
  only?: (t: Target) => boolean;
  /** months either side of each attacked month in its programme (default: one programme of all months) */
  window?: number;
}

export async function attackPublished(input: string, out: string, { only = FIGURES, window }: AttackAllOptions = {}): Promise<AttackReport> {
  const release = await readRelease(out);
  const panel = readPanel(input);
  const violations: string[] = [];
  let attacked = 0;
  let tightest = '';
  let tightestWidth = Infinity;
  for (const dim of ['country', 'category', 'plan'] as Dim[]) {
    const truth = truthOf(panel, dim);
    const verdictOf = (b: Bound) => {
      const shownStores = release.months.get(b.month)?.get(`active_stores|${dim}:${b.cell}`);
      return judge(b, truth(b), shownStores && !shownStores.suppressed ? shownStores.n : null);
    };
    // Points of the programme with stable cells are points of the one without (it has the same
    // figures and fewer rows): they start its intervals.
    const seen = new Map<string, [number, number]>();
    for (const stable of dim === 'plan' ? [false] : [true, false]) {
      // Solving a figure stops once its interval is wide enough for the rule: its true interval
      // is wider still.
      const bounds = await attackRelease(release, dim, { stable, only, window, enough: (b) => verdictOf(b) === null, seen });
      attacked += bounds.length;
      for (const b of bounds) {
        const t = truth(b);
        const verdict = verdictOf(b);
        if (verdict) violations.push(`${dim}${stable ? ' (stable cells)' : ''} ${verdict.kind}: ${verdict.text}`);
        if (b.figure === 'stores' && t) {
          const width = (b.hi - b.lo) / t;
          if (width < tightestWidth) [tightestWidth, tightest] = [width, `${dim} ${b.month} ${b.cell}: true ${t}, at least [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`];
        }
      }
    }
  }
  return { attacked, violations, disagreements: release.disagreements, tightest };
}
