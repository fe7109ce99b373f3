/** The server-rendered pages of member sign-in and Integrations → API & MCP: plain HTML, no framework. Pure. */
import type { ApiKeyInfo } from '../api/keys-store.js';
import type { Membership } from '../members/index.js';
import { ACCESS_CHOICES, type AccessChoice } from '../api/scopes.js';

export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:56rem;margin:2rem auto;padding:0 1rem}section{background:#fff;border:1px solid #d5d9de;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
label{display:block;margin:.5rem 0 .25rem;font-weight:600}input[type=email],input[type=password],input[type=text]{width:100%;max-width:24rem;padding:.4rem;font:inherit}
fieldset{border:1px solid #d5d9de;border-radius:6px;margin:.75rem 0}fieldset label{font-weight:400;display:inline}
button{font:inherit;padding:.4rem .9rem;border-radius:6px;border:1px solid #1f4fd1;background:#2457e6;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f4fd1}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e6ea;vertical-align:top}
code,output{font-family:ui-monospace,monospace;background:#eef1f5;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
.error{color:#a4161a;font-weight:600}.notice{background:#fff8e1;border-color:#e0b400}nav{display:flex;gap:1rem;align-items:center}`;

function layout(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · storelens</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const error = (e?: string) => (e ? `<p class="error" role="alert">${esc(e)}</p>` : '');

export function signInPage(o: { csrf: string; next: string; error?: string; email?: string; nonce: string }): string {
  return layout(
    'Sign in',
    `<h1>Sign in to storelens</h1>${error(o.error)}
<section><form method="post" action="/signin">
<input type="hidden" name="csrf" value="${esc(o.csrf)}"><input type="hidden" name="next" value="${esc(o.next)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(o.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p></form>
<p>No password yet? Ask an owner or admin of your workspace for an invite link.</p></section>`,
    o.nonce,
  );
}

export function invitePage(o: { email: string; workspace: string; csrf: string; error?: string; nonce: string; minLength: number }): string {
  return layout(
    'Set your password',
    `<h1>Join ${esc(o.workspace)} on storelens</h1>${error(o.error)}
<section><form method="post"><input type="hidden" name="csrf" value="${esc(o.csrf)}">
<p>You were invited as <strong>${esc(o.email)}</strong>. Choose a password of at least ${o.minLength} characters.</p>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${o.minLength}" required>
<label for="confirm">Repeat it</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${o.minLength}" required>
<p><button type="submit">Set password and sign in</button></p></form></section>`,
    o.nonce,
  );
}

export function messagePage(title: string, text: string, nonce: string, link: { href: string; text: string } = { href: '/signin', text: 'Sign in' }): string {
  return layout(title, `<h1>${esc(title)}</h1><section><p>${esc(text)}</p><p><a href="${esc(link.href)}">${esc(link.text)}</a></p></section>`, nonce);
}

/** The answer to a Sign out form of an earlier sign-in: who is signed in now, and a Sign out of this session. */
export function signOutPage(o: { email: string; csrf: string; nonce: string }): string {
  return layout(
    'Sign out',
    `<h1>Sign out</h1><section><p>That Sign out button was from an earlier sign-in, so nothing was done: this browser is signed in as <strong>${esc(o.email)}</strong>.</p>
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${esc(o.csrf)}"><p><button type="submit">Sign out</button> <a href="/integrations">Back to Integrations</a></p></form></section>`,
    o.nonce,
  );
}

const CHOICE_LABELS: Record<AccessChoice, string> = {
  read: 'Read access (read:accounts, read:watch)',
  'write-outcomes': 'Write outcomes (write:outcomes)',
  reports: 'Generate reports (generate:reports)',
};

export interface IntegrationsView {
  email: string;
  csrf: string;
  /** The Create key form's one-time token: the form sent twice issues one key. */
  formToken: string;
  workspace: Membership;
  workspaces: Membership[];
  keys: ApiKeyInfo[];
  mcpUrl: string;
  /** The key just created: its secret, shown this once. */
  created?: { name: string; key: string; prefix: string };
  error?: string;
  nonce: string;
}

/**
 * The Copy button: to the clipboard, or, where the page may not write it (a page over http from
 * another machine is no secure context; a denied permission), the key selected for Ctrl+C.
 */
const COPY_SCRIPT = `document.getElementById('copy-key').addEventListener('click',async()=>{const key=document.getElementById('new-key'),said=document.getElementById('copied');\
try{await navigator.clipboard.writeText(key.textContent);said.textContent='Copied';}\
catch{getSelection().selectAllChildren(key);said.textContent='Selected: press Ctrl+C (⌘C on a Mac) to copy it.';}});`;

export function integrationsPage(v: IntegrationsView): string {
  const manage = v.workspace.role === 'owner' || v.workspace.role === 'admin';
  const ws = encodeURIComponent(v.workspace.workspace_id);
  const switcher =
    v.workspaces.length > 1
      ? `<p>Workspace: ${v.workspaces.map((w) => (w.workspace_id === v.workspace.workspace_id ? `<strong>${esc(w.name)}</strong>` : `<a href="/integrations?workspace=${encodeURIComponent(w.workspace_id)}">${esc(w.name)}</a>`)).join(' · ')}</p>`
      : '';
  const created = v.created
    ? `<section class="notice" aria-live="polite"><h3>Key “${esc(v.created.name)}” created</h3>
<p>Copy it now: it is shown this once and stored only as a hash.</p>
<p><output id="new-key">${esc(v.created.key)}</output> <button type="button" class="secondary" id="copy-key">Copy</button> <span id="copied" role="status"></span></p>
<script nonce="${v.nonce}">${COPY_SCRIPT}</script></section>`
    : '';
  const createForm = manage
    ? `<h3>Create key</h3><form method="post" action="/integrations/keys?workspace=${ws}">
<input type="hidden" name="csrf" value="${esc(v.csrf)}"><input type="hidden" name="form" value="${esc(v.formToken)}">
<label for="key-name">Name</label><input id="key-name" name="name" type="text" required maxlength="100">
<fieldset><legend>Access (at least one)</legend>
${(Object.keys(ACCESS_CHOICES) as AccessChoice[]).map((c) => `<div><input type="checkbox" id="choice-${c}" name="access" value="${c}"> <label for="choice-${c}">${esc(CHOICE_LABELS[c])}</label></div>`).join('\n')}
</fieldset><p><button type="submit">Create key</button></p></form>`
    : '<p>Only an owner or admin can create and revoke keys.</p>';
  const rows = v.keys
    .map(
      (k) => `<tr><td>${esc(k.name)}</td><td><code>${esc(k.prefix)}</code></td><td>${k.scopes.map((s) => `<code>${esc(s)}</code>`).join(' ')}</td><td>${esc(k.created_by)}</td>
<td>${k.last_used_at ? esc(k.last_used_at) : 'never'}</td><td>${
        k.revoked_at
          ? `revoked ${esc(k.revoked_at)}`
          : manage
            ? `<form method="post" action="/integrations/keys/${encodeURIComponent(k.id)}/revoke?workspace=${ws}"><input type="hidden" name="csrf" value="${esc(v.csrf)}"><button type="submit" class="secondary" aria-label="Revoke ${esc(k.name)}">Revoke</button></form>`
            : 'active'
      }</td></tr>`,
    )
    .join('\n');
  return layout(
    'Integrations',
    `<nav><strong>storelens</strong><span>${esc(v.email)} (${esc(v.workspace.role)} of ${esc(v.workspace.name)})</span>
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${esc(v.csrf)}"><button type="submit" class="secondary">Sign out</button></form></nav>
<h1>Integrations</h1>${switcher}${error(v.error)}
<section aria-labelledby="api-mcp"><h2 id="api-mcp">API &amp; MCP</h2>
<p>MCP server URL to paste into an assistant (it signs you in with OAuth and acts with your role's access):</p>
<p><code id="mcp-url">${esc(v.mcpUrl)}</code></p>
${created}${createForm}
<h3>Keys</h3><table><thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created by</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No keys yet.</td></tr>'}</tbody></table></section>`,
    v.nonce,
  );
}

export interface ConsentView {
  nonce: string;
  csrf: string;
  email: string;
  /** Where the form posts (the interaction's page). */
  action: string;
  client: { id: string; name?: string };
  redirectTo: string;
  /** Each workspace of the member with the grants their role gives there now. */
  workspaces: { membership: Membership; grants: string[] }[];
  describe: (scope: string) => string;
}

/** The assistant connector's consent screen: who asks, for which workspace, with which grants. */
export function consentPage(v: ConsentView): string {
  const name = v.client.name ? `${esc(v.client.name)} (<code>${esc(v.client.id)}</code>)` : `<code>${esc(v.client.id)}</code>`;
  let host = '';
  try {
    host = new URL(v.redirectTo).host;
  } catch {
    host = v.redirectTo;
  }
  const choices = v.workspaces
    .map(
      (w, i) => `<div class="workspace"><input type="radio" name="workspace" id="ws-${i}" value="${esc(w.membership.workspace_id)}"${i === 0 ? ' checked' : ''} required>
<label for="ws-${i}">${esc(w.membership.name)} — as ${esc(w.membership.role)}</label>
<ul aria-label="Grants in ${esc(w.membership.name)}">${w.grants.map((g) => `<li><code>${esc(g)}</code> ${esc(v.describe(g))}</li>`).join('')}</ul></div>`,
    )
    .join('\n');
  return layout(
    'Allow an assistant',
    `<h1>Allow an assistant to use storelens</h1>
<section><p>${name} asks to act as <strong>${esc(v.email)}</strong>. After you allow it, it is sent back to <code>${esc(host)}</code>.</p>
<form method="post" action="${esc(v.action)}"><input type="hidden" name="csrf" value="${esc(v.csrf)}">
<fieldset><legend>Workspace and what the assistant may do there</legend>
${choices}
</fieldset>
<p>The access follows your role at every call: if your role changes or you leave the workspace, the assistant's access changes or ends at once.</p>
<p><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></p></form></section>`,
    v.nonce,
  );
}
