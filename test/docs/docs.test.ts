/**
 * The guides in docs/ stay true to the code where that is cheap to check: every problem type
 * with its status, every operation the shipped manifest makes available, the limits and the
 * key choices the API enforces, every administration command, and every relative link (and
 * its #anchor) in README.md and docs/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT, bodyLimitText } from '../../src/api/body.js';
import { capabilityReader } from '../../src/api/capabilities.js';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from '../../src/api/idempotency.js';
import { DEFAULT_LIMITS } from '../../src/api/rate-limit.js';
import { ROUTES } from '../../src/compose/modules.js';
import { isMutating } from '../../src/api/route-def.js';
import { METRICS, PAGES } from '../../src/stats/registry.js';
import { EVENT_TYPES } from '../../src/compose/events.js';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../../src/api/schemas.js';
import { ACCESS_CHOICES, SCOPES } from '../../src/api/scopes.js';
import { PROBLEM_KINDS } from '../../src/http/problems.js';
import { COMMANDS, settingsOf } from '../../src/settings/table.js';
import { ROLES } from '../../src/core/roles.js';
import { SIGNIN_THROTTLE, lockAfter } from '../../src/members/signin-throttle.js';
import { LABELS } from '../../src/accounts/labels.js';
import { PRIOR, SIGNAL_WINDOW } from '../../src/accounts/prior.js';
import { EXPLORE_SHARE, IN_MARKET_MIN_SCORE, IN_MARKET_QUANTILE, NOT_IN_MARKET } from '../../src/accounts/in-market.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** README.md and every guide under docs/, its folders included. */
const DOC_FILES = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).sort()];
const restApi = read('docs/rest-api.md');
const administration = read('docs/administration.md');

/** A markdown table row starting with these cells (cell text as written, backticks included). */
const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;
const code = (s: string) => `\`${s}\``;

describe('docs/rest-api.md', () => {
  it.each(Object.entries(PROBLEM_KINDS))('lists the problem type %s with its status', (kind, spec) => {
    expect(restApi).toContain(row(code(kind), String(spec.status)));
  });

  it('documents every operation the shipped capability manifest makes available, with its method and path', () => {
    const capability = capabilityReader();
    const available = ROUTES.filter((r) => capability(r).availability === 'available');
    expect(available.length).toBeGreaterThan(0);
    for (const r of available) expect(restApi).toContain(`${code(r.operationId)}: ${code(`${r.method} /api/v1${r.path}`)}`);
  });

  it('states the limits the API enforces', () => {
    for (const [kind, limit] of Object.entries(DEFAULT_LIMITS)) expect(restApi).toMatch(new RegExp(`^\\| \`${kind}\` \\|.*\\| ${limit} \\|$`, 'm'));
    expect(restApi).toContain(`**${IDEMPOTENCY_TTL_MS / 3_600_000} hours**`);
    expect(restApi).toContain(`1 to ${IDEMPOTENCY_KEY_MAX} characters`);
    expect(restApi).toContain(`over ${IDEMPOTENCY_KEY_MAX} characters`);
    expect(restApi).toContain(`over ${bodyLimitText(BODY_LIMIT)} (${BODY_LIMIT.toLocaleString('en')} bytes)`);
    expect(restApi).toContain(`${LIMIT_MIN} to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}`);
  });

  it('counts the available operations of each group as the shipped manifest has them', () => {
    const capability = capabilityReader();
    const available = (tag: string) => ROUTES.filter((r) => r.tag === tag && capability(r).availability === 'available');
    const groups: [tag: string, words: string][] = [
      ['Deals', 'deal operations'],
      ['Contacts', 'contact operations'],
      ['Watches', 'watch operations'],
      ['Webhooks', 'webhook operations'],
      ['Wallet', 'wallet and supervision reads'],
    ];
    const worked = restApi.slice(restApi.indexOf('## Operations that work today'));
    for (const [tag, words] of groups) expect(flat(worked), tag).toContain(`the ${NUMBER_WORDS[available(tag).length]} ${words}`);
    for (const r of [...available('Accounts'), ...available('Outcomes'), ...available('Contacts')]) {
      expect(flat(worked.slice(0, worked.indexOf('###'))), r.operationId).toContain(code(r.operationId));
    }
  });

  it('asks an Idempotency-Key of every operation but GET, as the executor does', () => {
    for (const r of ROUTES) expect(isMutating(r), r.operationId).toBe(r.method !== 'GET');
    expect(flat(restApi)).toContain('Every mutating operation (every method but `GET`');
  });

  it('describes the deals and contacts of get_account as what the operation returns', () => {
    const getAccount = ROUTES.find((r) => r.operationId === 'get_account')!;
    const detail = (getAccount.response as unknown as { shape: Record<string, unknown> }).shape;
    for (const field of ['features', 'status_history', 'signal_summary', 'deals', 'contacts']) {
      expect(Object.keys(detail)).toContain(field);
      expect(restApi).toMatch(new RegExp(`^\\| \`${field}\` \\| `, 'm'));
    }
  });

  it('names every scope, and the scopes of each self-serve choice', () => {
    for (const scope of SCOPES) expect(restApi).toContain(row(code(scope)));
    for (const [choice, scopes] of Object.entries(ACCESS_CHOICES)) expect(restApi).toContain(row(code(choice), scopes.map(code).join(', ')));
  });
});

describe('counts of metrics in README.md and docs/', () => {
  const files = DOC_FILES;

  it.each(files)('%s states the number of metrics the registry has, or none', (file) => {
    for (const m of flat(read(file)).matchAll(/\b(\d+) (?:published )?metrics?\b/g)) expect(Number(m[1]), `${file}: ${m[0]}`).toBe(METRICS.length);
  });
});

describe('docs/administration.md', () => {
  const adminCommands = COMMANDS.map((c) => c.name).filter((name) => {
    const names = settingsOf(name).map((s) => s.name);
    return names.includes('db') && names.includes('json');
  });

  it.each(adminCommands)('documents storelens %s', (name) => {
    expect(administration).toContain(`### \`storelens ${name}`);
  });

  it('names every role and the scopes of each self-serve choice', () => {
    for (const role of ROLES) expect(administration).toContain(row(code(role)));
    for (const [choice, scopes] of Object.entries(ACCESS_CHOICES)) expect(administration).toContain(row(code(choice), scopes.map(code).join(', ')));
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('opens with the two commands: install and start, then test', () => {
    const first = /^# storelens\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.split('\n').filter(Boolean) ?? [];
    expect(first.map((l) => l.split('#')[0]!.trim())).toEqual(['npm install && npm start', 'npm test']);
  });

  it('stays short: what storelens is, its three jobs and the links (under 200 lines)', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
    for (const job of ['publish', 'serve', 'api']) expect(readme).toMatch(new RegExp(`^## ${job}: `, 'm'));
  });

  it('shows a curl for the model insights and links the command reference', () => {
    expect(readme).toMatch(/^curl .*\/api\/v1\/model-insights/m);
    expect(readme).toContain('(docs/cli.md');
  });
});

describe('docs/cli.md and docs/getting-started.md', () => {
  it('names every published page slug, in the registry order', () => {
    const cli = flat(read('docs/cli.md'));
    expect(cli).toContain(`Slugs: ${PAGES.map((p) => code(p.slug)).join(', ')}.`);
  });

  it('lists every event type in the events table, as the declarations have them', () => {
    const started = read('docs/getting-started.md');
    const section = started.slice(started.indexOf('\n## Events (webhooks)\n'), started.indexOf('\n## Growth reports'));
    const listed = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...EVENT_TYPES].sort());
  });
});

describe('README.md and docs/ speak for themselves', () => {
  const files = DOC_FILES;

  it.each(files)('%s sends no reader to the project notes outside the repository', (file) => {
    expect(read(file)).not.toMatch(/\.\.\/shared|SPEC\.md|DESIGN\.md|\bSPEC\b/);
  });
});

describe('links in README.md and docs/', () => {
  const files = DOC_FILES;
  const links = files.flatMap((file) => relativeLinks(read(file)).map((target) => ({ file, target })));

  it('finds the guides linked from README.md', () => {
    const fromReadme = links.filter((l) => l.file === 'README.md').map((l) => l.target);
    expect(fromReadme).toEqual(expect.arrayContaining(['docs/rest-api.md', 'docs/administration.md', 'docs/cli.md', 'docs/getting-started.md']));
  });

  it.each(links.map((l) => [l.file, l.target]))('%s: %s resolves', (file, target) => {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart === '' ? path.join(ROOT, file) : path.join(ROOT, path.dirname(file), decodeURIComponent(pathPart));
    expect(resolved.startsWith(ROOT), `${target} stays inside the repository`).toBe(true);
    expect(existsSync(resolved), `${target} exists`).toBe(true);
    if (anchor !== undefined && resolved.endsWith('.md')) {
      expect(headingAnchors(readFileSync(resolved, 'utf8')), `#${anchor} is a heading of ${path.relative(ROOT, resolved)}`).toContain(anchor);
    }
  });
});

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/** Markdown with its line breaks and runs of blanks as one space, so a phrase matches across a wrapped line. */
function flat(markdown: string): string {
  return markdown.replace(/\s+/g, ' ');
}

/** The markdown text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Targets of inline links `[text](target)` that are not URLs with a scheme. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** Anchors of the headings, as GitHub derives them: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): string[] {
  const seen = new Map<string, number>();
  const headings = markdown.replace(/^```[\s\S]*?^```$/gm, '').match(/^#{1,6} .+$/gm) ?? [];
  return headings.map((h) => {
    const base = h
      .replace(/^#+ /, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  });
}

describe('docs/accounts.md', () => {
  const accounts = read('docs/accounts.md');
  const signed = (w: number) => (w > 0 ? `+${w.toFixed(1)}` : `−${Math.abs(w).toFixed(1)}`);
  const words = (type: string) => type.replace(/_/g, ' ');

  it('states the starting weight of every signal as the model has it', () => {
    for (const [type, prior] of Object.entries(PRIOR.signal)) expect(accounts).toContain(`| ${words(type)} | ${signed(prior.mean)} |`);
    expect(accounts).toContain(`intercept starts at ${signed(PRIOR.intercept.mean).replace('+', '')}`);
  });

  it('states the label of every outcome action', () => {
    for (const [action, l] of Object.entries(LABELS)) expect(accounts).toContain(`| ${action} | ${l.y === 1 ? 'positive' : 'negative'} | ${l.weight} |`);
  });

  it('states the in-market rule and the exploration share', () => {
    expect(IN_MARKET_QUANTILE).toBe(0.8);
    expect(accounts).toContain('top fifth');
    expect(accounts).toContain(`at least ${IN_MARKET_MIN_SCORE}`);
    expect(EXPLORE_SHARE).toBe(0.1);
    expect(accounts).toContain('one\ntenth of the in-market list');
    expect(accounts).toContain(`last ${SIGNAL_WINDOW} months`);
    for (const s of NOT_IN_MARKET) expect(accounts).toContain(code(s));
  });
});

describe('docs/assistant.md', () => {
  it('states the sign-in throttle with the numbers the code uses', () => {
    const assistant = read('docs/assistant.md');
    const { free } = SIGNIN_THROTTLE;
    expect(assistant).toContain(row('failures in a row that lock nothing', String(free.account), String(free.address)));
    expect(lockAfter('account', free.account + 1)).toBe(1_000);
    expect(lockAfter('address', free.address + 1)).toBe(1_000);
    expect(assistant).toContain(row('lock after the next failure', '1 second', '1 second'));
    expect(SIGNIN_THROTTLE.maxLockMs).toBe(15 * 60_000);
    expect(assistant).toContain(row('longest lock', '15 minutes', '15 minutes'));
    expect(SIGNIN_THROTTLE.forgetMs).toBe(3_600_000);
    expect(assistant).toContain('no failure for an hour starts again');
  });
});
