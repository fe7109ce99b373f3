/** Money as text: whole minor units (cents) in, exact decimal text out; never a float in between. */

const AMOUNT = /^(0|[1-9][0-9]{0,12})(?:\.([0-9]{1,2}))?$/;

/** `25`, `25.5`, `25.50` (major units of a two-decimal currency) ⇒ 2550 minor units; null when not such a text. */
export function parseAmount(text: string): number | null {
  const m = AMOUNT.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 2550 ⇒ `25.50`. */
export function formatAmount(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
