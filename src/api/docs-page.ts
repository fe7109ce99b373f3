/** A self-contained HTML reference of the API (no external assets), rendered from openapi.json. */
import { createHash } from 'node:crypto';

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f5f5f5;padding:.5rem;overflow:auto}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700}
.badge{border-radius:3px;padding:0 .4rem;font-size:12px;background:#eee}.available{background:#d6f5d6}.unavailable{background:#f5d6d6}
table{border-collapse:collapse}td{border:1px solid #ddd;padding:.2rem .5rem}
`;

/**
 * The page's Content-Security-Policy: nothing loads, no script runs; its one style sheet is
 * allowed by its hash (it is the same for every page), so a value of openapi.json that made it
 * into the page as markup could not style or script it either.
 */
export const DOCS_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Json = Record<string, any>;

/** Escaped text with `code` spans and paragraph breaks. */
const prose = (s: unknown): string =>
  esc(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\n\n/g, '</p><p>');

export function docsPage(doc: Json): string {
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(methods as Record<string, Json>)) {
      const params = (op.parameters as Json[])
        .map((p) => (p.$ref ? { name: 'Idempotency-Key', in: 'header', required: true, description: 'Stable logical request ID' } : p))
        .map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''}) ${prose(p.description)}</li>`)
        .join('');
      const statuses = Object.keys(op.responses).join(', ');
      ops.push(`<section id="${esc(op.operationId)}">
<h3><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(doc.servers[0].url + path)}</code></h3>
<p><strong>${esc(op.summary)}</strong> — <code>${esc(op.operationId)}</code>
<span class="badge ${esc(op['x-availability'])}">${esc(op['x-availability'])}</span></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
${params ? `<ul>${params}</ul>` : ''}
${op.requestBody ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre></details>` : ''}
<p>Statuses: ${esc(statuses)}</p>
</section>`);
    }
  }
  const webhooks = Object.entries((doc.webhooks ?? {}) as Record<string, Json>).map(([type, { post }]) => {
    const body = post.requestBody.content['application/json'];
    return `<section id="webhook-${esc(type)}">
<h3><code>${esc(type)}</code></h3>
<p><strong>${esc(post.summary)}</strong></p>
<p>${prose(post.description)}</p>
<pre>${esc(JSON.stringify(body.example, null, 2))}</pre>
<details><summary>Message schema</summary><pre>${esc(JSON.stringify(body.schema, null, 2))}</pre></details>
</section>`;
  });
  const problems = Object.entries(doc['x-problem-types'] as Record<string, { status: number; title: string }>)
    .map(([type, p]) => `<tr><td><code>${esc(type)}</code></td><td>${p.status}</td><td>${esc(p.title)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>${STYLE}</style></head><body>
<h1>${esc(doc.info.title)}</h1>
<p>${prose(doc.info.description)}</p>
<p>Machine-readable: <a href="openapi.json">openapi.json</a></p>
<h2>Operations</h2>
${ops.join('\n')}
${webhooks.length ? `<h2>Webhooks</h2>\n<p>The signed messages a registered endpoint receives (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>, <code>webhook-sequence</code>).</p>\n${webhooks.join('\n')}` : ''}
<h2>Problem types</h2>
<table><tr><th>type</th><th>status</th><th>title</th></tr>${problems}</table>
</body></html>
`;
}
