import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakdown } from '../../src/render/breakdown.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { expectGolden } from '../helpers/golden.js';
import { fixturePage } from './fixture-page.js';

/** Cells of a GFM table row: `|` splits unless backslash-escaped (a backslash escapes the next char). */
function splitRow(line: string): string[] {
  expect(line.startsWith('| ') && line.endsWith(' |')).toBe(true);
  const cells: string[] = [];
  let cell = '';
  for (let i = 1; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      cell += c + (line[i + 1] ?? '');
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += c;
    }
  }
  return cells;
}

/** Does `needle` occur outside a backslash escape? */
function occursUnescaped(text: string, needle: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text.startsWith(needle, i)) return true;
  }
  return false;
}

function tables(md: string): string[][] {
  const out: string[][] = [];
  let current: string[] | null = null;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) (current ??= []).push(line);
    else if (current) {
      out.push(current);
      current = null;
    }
  }
  return out;
}

describe('renderMarkdown', () => {
  it('renders the fixture page as its golden file', () => {
    expectGolden('render/agentic-commerce.md', renderMarkdown(fixturePage()));
  });

  it('puts one table per metric, one row per published stat, each row with its anchor', () => {
    const page = fixturePage();
    const md = renderMarkdown(page);
    const found = tables(md);
    expect(found).toHaveLength(page.sections.length);
    page.sections.forEach((section, i) => {
      const rows = found[i]!.slice(2);
      const shown = breakdown(section.stats).shown;
      expect(rows).toHaveLength(shown.length);
      shown.forEach((stat, j) => expect(rows[j]).toContain(`<a id="${stat.anchor}"></a>`));
    });
    for (const stat of page.document.stats) expect(md).toContain(`<a id="${stat.anchor}"></a>`);
    expect(md).toContain(`## Stores with an llms.txt file`);
    expect(md).toContain('Methodology version: 2026.1.');
    expect(md).toContain('CC BY 4.0');
    expect(md).toContain('Attribution: [storelens, Agentic commerce readiness](https://stats.example.com/data/agentic-commerce)');
  });

  it('names countries, and sums up the hidden cells of a table in one line with the full list one click away', () => {
    const md = renderMarkdown(fixturePage());
    const ae = md.split('\n').find((l) => l.includes('Country: United Arab Emirates'))!;
    expect(splitRow(ae).slice(1, 4)).toEqual(['48', '48', 'hidden']);
    expect(md).toContain('A change shown as “hidden”: too few stores in both months for a change (fewer than 30), or hidden to protect such a change.');
    expect(md).not.toContain('Plan: plus');
    expect(md).toContain('<details><summary>1 plan not published, with fewer than 30 stores or hidden to protect one that has: plus.</summary>');
    expect(md).toContain('<details><summary>3 countries not published, each with fewer than 30 stores or hidden to protect one that has: Austria, Belgium, QQ.</summary>');
    expect(md).toMatch(/^Countries: <a id="stores-count-country-at-[0-9a-f]{6}"><\/a>Austria, <a id="[^"]+"><\/a>Belgium, <a id="[^"]+"><\/a>QQ\.$/m);
    expect(md).not.toMatch(/suppressed|\bAE\b/);
  });

  it('lists a hidden figure of all stores by its label alone, and says so when nothing of a metric is published', () => {
    const page = fixturePage();
    const section = page.sections[2]!;
    const all = { ...section.stats[0]!, value: null, n: null, numerator: null, null_rate: null, suppressed: true };
    const md = renderMarkdown({ ...page, sections: [{ ...section, stats: [all] }] });
    expect(md).toContain('No figure of this metric is published this month.');
    expect(md).toContain('<details><summary>1 figure for all stores not published, with fewer than 30 stores or hidden to protect one that has: All stores.</summary>');
    expect(md).toContain(`\n<a id="${all.anchor}"></a>All stores.\n`);
  });

  it('keeps the table structure and escapes syntax for any category string', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 4 }), (raw) => {
        const categories = [...new Set(raw.map((c) => c + '<evil|'))];
        const page = fixturePage(categories);
        const md = renderMarkdown(page);
        const found = tables(md);
        expect(found).toHaveLength(page.sections.length);
        found.forEach((lines, i) => {
          expect(lines).toHaveLength(breakdown(page.sections[i]!.stats).shown.length + 2);
          for (const line of lines) expect(splitRow(line)).toHaveLength(4);
        });
        expect(occursUnescaped(md, '<evil')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
