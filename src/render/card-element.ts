/**
 * The layout of a 1200×630 share card as satori element objects (`{ type, props }`, no React):
 * brand and page title, month, the value and its change vs the previous month (or why it is not
 * published), the sentence, n and the attribution. Pure: the text cleaner is passed in.
 */
import { CARD_HEIGHT, CARD_WIDTH } from './embed.js';
import { formatCount, formatMonth, SUPPRESSED_CARD_REASON, SUPPRESSED_CARD_TEXT } from './format.js';
import type { CardInput } from './page.js';

export interface CardNode {
  type: string;
  props: { style?: Record<string, string | number>; children?: CardNode | string | Array<CardNode | string> };
}

const PAD_X = 72;
const INNER = CARD_WIDTH - 2 * PAD_X;
const COLORS = {
  bg: '#ffffff',
  band: '#0b57c4',
  ink: '#111827',
  muted: '#4b5563',
  faint: '#e5e7eb',
  accent: '#0b57c4',
  suppressed: '#6b7280',
};

function el(type: string, style: Record<string, string | number>, children?: CardNode['props']['children']): CardNode {
  return { type, props: children === undefined ? { style } : { style, children } };
}

/** One line of text that ends in "…" when too long. */
function line(text: string, style: Record<string, string | number>): CardNode {
  return el('div', { display: 'block', width: INNER, lineClamp: 1, overflowWrap: 'break-word', ...style }, text);
}

/** Big figure: smaller type for long strings so it always fits on one line. */
function valueSize(text: string): number {
  if (text.length <= 9) return 144;
  if (text.length <= 13) return 116;
  return 88;
}

export function cardElement(card: CardInput, clean: (text: string) => string, fontFamily: string): CardNode {
  const context = [card.metricTitle, card.dimensionLabel].filter((t): t is string => !!t && t.trim() !== '').map(clean).join(' · ');
  const figure = card.suppressed || card.valueText === null
    ? el('div', { display: 'flex', flexDirection: 'column' }, [
        el('div', { fontSize: 88, fontWeight: 700, color: COLORS.suppressed, lineHeight: 1.05 }, SUPPRESSED_CARD_TEXT),
        el('div', { display: 'block', width: INNER, fontSize: 36, fontWeight: 600, color: COLORS.suppressed, marginTop: 8, lineClamp: 2, overflowWrap: 'break-word' }, SUPPRESSED_CARD_REASON),
      ])
    : el('div', { display: 'flex', flexDirection: 'column' }, [
        line(clean(card.valueText), { fontSize: valueSize(card.valueText), fontWeight: 700, color: COLORS.ink, lineHeight: 1.05, letterSpacing: -2 }),
        ...(card.changeText ? [line(clean(card.changeText), { fontSize: 40, fontWeight: 600, color: COLORS.accent, marginTop: 6 })] : []),
      ]);
  // A hidden cell may hold many stores (it can be hidden to protect another): its n is not said.
  const nText = card.suppressed || card.n === null ? 'n not published' : `n = ${formatCount(card.n)} stores`;

  return el(
    'div',
    {
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      backgroundColor: COLORS.bg,
      fontFamily,
      color: COLORS.ink,
    },
    [
      el('div', { width: '100%', height: 14, backgroundColor: COLORS.band }),
      el('div', { display: 'flex', flexDirection: 'column', flexGrow: 1, padding: `44px ${PAD_X}px 0` }, [
        el('div', { display: 'flex', justifyContent: 'space-between', alignItems: 'center', width: INNER }, [
          el('div', { display: 'block', fontSize: 30, fontWeight: 700, color: COLORS.accent, lineClamp: 1, maxWidth: INNER - 280, overflowWrap: 'break-word' }, clean(card.pageTitle)),
          el('div', { fontSize: 30, fontWeight: 600, color: COLORS.muted }, clean(formatMonth(card.month))),
        ]),
        context ? line(context, { fontSize: 28, fontWeight: 400, color: COLORS.muted, marginTop: 14 }) : el('div', { height: 0 }),
        el('div', { display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: 'center', paddingBottom: 12 }, [
          el('div', { display: 'flex' }, [figure]),
          el(
            'div',
            { display: 'block', width: INNER, marginTop: 22, fontSize: 36, lineHeight: 1.3, fontWeight: 400, color: COLORS.ink, lineClamp: 3, overflowWrap: 'break-word' },
            clean(card.sentence),
          ),
        ]),
      ]),
      el(
        'div',
        {
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          margin: `0 ${PAD_X}px`,
          padding: '22px 0 30px',
          borderTop: `2px solid ${COLORS.faint}`,
          width: INNER,
          fontSize: 22,
          color: COLORS.muted,
        },
        [
          el('div', { fontWeight: 600, color: COLORS.ink }, nText),
          el('div', { display: 'block', maxWidth: INNER - 230, lineClamp: 1, textAlign: 'right', overflowWrap: 'break-word' }, clean(card.attribution)),
        ],
      ),
    ],
  );
}

export { CARD_HEIGHT, CARD_WIDTH };
