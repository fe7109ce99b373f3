/**
 * Escaping for every text that reaches a page. Category names come from upstream and are
 * hostile (`=cmd`, quotes, commas, newlines, `|`, `<script>`, non-ASCII): everything that is
 * data goes through one of these, never into a template raw.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value (double- or single-quoted) in HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON for an inline `<script>` element: `<`, `>` and `&` as \u escapes, so neither `</script>`
 * nor `<!--` can end or confuse the element; U+2028/U+2029 escaped for older parsers.
 */
export function jsonForScript(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Line breaks as CommonMark sees them, plus the Unicode separators some renderers honour. */
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029\u0085]/g;
/** Other control characters: never useful in a page, and some break terminals or parsers. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Inline markdown text: the ASCII punctuation that can open markdown syntax in running text
 * is backslash-escaped (CommonMark allows a backslash before any ASCII punctuation), so data
 * never becomes emphasis, a link, a code span, raw HTML, an entity, strikethrough or a table
 * pipe. Line breaks become spaces and leading blanks go, so the text stays on its line.
 */
export function escapeMarkdownInline(text: string): string {
  return text
    .replace(CONTROLS, '')
    .replace(LINE_BREAKS, ' ')
    .replace(/^[ \t]+/, '')
    .replace(/[\\`*_[\]<|~]/g, (c) => '\\' + c)
    .replace(/&(?=#?[0-9A-Za-z]+;)/g, '\\&');
}

/**
 * A paragraph of markdown text: {@link escapeMarkdownInline}, and a block marker at its start
 * (`#`, `>`, `-`, `+`, `=`, `1.`, `1)`) escaped so it stays a paragraph.
 */
export function escapeMarkdownParagraph(text: string): string {
  return escapeMarkdownInline(text)
    .replace(/^([#>+=-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Text for raw HTML inside markdown (a `<summary>`): on one line, without controls, HTML-escaped. */
export function markdownHtmlLine(text: string): string {
  return escapeHtml(text.replace(CONTROLS, '').replace(LINE_BREAKS, ' '));
}

/** A GFM table cell: inline-escaped (so `|` becomes `\|`); a row keeps its column count. */
export function markdownCell(text: string): string {
  return escapeMarkdownInline(text);
}
