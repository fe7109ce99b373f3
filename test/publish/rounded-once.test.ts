/**
 * A share is rounded once in every text a reader sees. Its value is published to four decimals,
 * and a percent with one decimal taken from that rounded value can land on the other side of a
 * half: 4 of 53 stores is 7.547%, published 0.0755, which read "7.6%" on the page, in the
 * sentence and on the card while numerator / n says 7.5%.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageModel } from '../../src/publish/pages.js';
import { pageCardInputs } from '../../src/render/card-inputs.js';
import { BASE_URL, publishPanel, readDocument } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { stores, writePanel } from '../stats/hand-panel.js';

const dirs = tempDirs('storelens-rounded-once-');
afterAll(() => dirs.removeAll());
const JAN = '2026-01';

describe('a share of 4 in 53 stores (7.547%, published as 0.0755)', () => {
  it('reads 7.5% in the JSON sentence, the markdown and HTML pages, the trend line and the card, never 7.6%', async () => {
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    const out = path.join(root, 'out');
    await writePanel(input, [...stores('yes', 4, 'US', 'apparel', [JAN], ['llms_txt']), ...stores('no', 49, 'US', 'apparel', [JAN])]);
    await publishPanel(input, out);

    const doc = await readDocument(out, 'agentic-commerce', JAN);
    const stat = doc.stats.find((s) => s.id === 'llms_txt_share:all')!;
    expect([stat.value, stat.numerator, stat.n]).toEqual([0.0755, 4, 53]);
    expect(stat.sentence).toContain('7.5% of stores served an llms.txt file');

    const markdown = await readFile(path.join(out, 'data', 'agentic-commerce.md'), 'utf8');
    const html = await readFile(path.join(out, 'data', 'agentic-commerce.html'), 'utf8');
    const between = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));
    const sections = [
      between(markdown, '## Stores with an llms.txt file', '## Stores with product structured data'),
      between(html, '<h2 id="metric-llms-txt-share-heading">', '<h2 id="metric-product-schema-share-heading">'),
    ];
    for (const page of sections) {
      expect(page).toContain('7.5%');
      expect(page).not.toContain('7.6%');
    }
    expect(html).toContain('Stores with an llms.txt file, all stores, January 2026: 7.5% in January 2026.');

    const card = pageCardInputs(pageModel(doc, [doc], BASE_URL)).find((c) => c.anchor === stat.anchor)!;
    expect(card.valueText).toBe('7.5%');
  });
});
