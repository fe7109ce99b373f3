/**
 * Every command and every option of storelens, declared once. The table drives commander (flags,
 * parsing, `--help`), the Config each command receives (src/settings/config.ts) and the option
 * list in docs/cli.md (src/settings/cli-docs.ts; `npm run cli-docs` rewrites it).
 */
import { ROLES } from '../core/roles.js';
import { API_PORT, DB_PATH, GENERATE_LIMITS, HOST, OUT_DIR, PORT, READINESS_TIMEOUT_MS, RUNS_DIR } from '../core/defaults.js';
import { ACCESS_CHOICES } from '../api/scopes.js';
import { WALLET_VISIBILITIES } from '../core/wallet-visibilities.js';
import { addressBlocks, envSwitch, folder, httpOrigin, httpUrl, memberEmail, memorySize, month, nonNegativeInt, nonNegativeNumber, oneOf, port, positiveInt, positiveIntAtMost, seconds, seedRange, serverKey, someOf, targetUrlValue, text, texts, toggle, type Value } from './values.js';

export const PROGRAM = {
  name: 'storelens',
  summary: 'Public e-commerce statistics (generate, publish, serve) and the workspace REST API (api).',
} as const;

export interface ArgumentDef {
  readonly name: string;
  readonly help: string;
  readonly choices?: readonly string[];
  /** May be left out (only after the required ones). */
  readonly optional?: boolean;
  /**
   * The Config key of a setting whose flag may stand for this argument (`workspace`: the first
   * argument, or --workspace). Only the first argument; src/settings/program.ts reads the rest
   * of the arguments after it either way.
   */
  readonly orOption?: string;
}

/**
 * An argument as help and README write it: `<name>`, `[name]` when it may be left out, and
 * `(--workspace <w> | <workspace>)` when a flag may stand for it.
 */
export function argumentUsage(a: ArgumentDef): string {
  const own = a.optional ? `[${a.name}]` : `<${a.name}>`;
  return a.orOption ? `(${flagWithArg(orOptionSetting(a))} | ${own})` : own;
}

/** The setting whose flag may stand for argument `a` (it names one, with a flag). */
export function orOptionSetting(a: ArgumentDef): SettingDef {
  const s = (SETTINGS as readonly SettingDef[]).find((s) => s.name === a.orOption && s.flag);
  if (!s) throw new Error(`argument ${a.name}: no setting "${a.orOption}" with a flag`);
  return s;
}

/**
 * The two ways of writing `def`, whose first argument `a` a flag may stand for: with the flag
 * (`storelens members remove --workspace W <email>`) and with the argument (`… remove W <email>`).
 */
export function orOptionForms(def: CommandDef, a: ArgumentDef): [string, string] {
  const words = (def.args ?? []).slice(1).map(argumentUsage);
  const line = (...first: string[]) => [PROGRAM.name, def.name, ...first, ...words].join(' ');
  return [line(orOptionSetting(a).flag!, 'W'), line('W')];
}

/**
 * The workspace a command acts on, as its first argument or as --workspace: `members remove W
 * E` and `members remove E --workspace W` are one command (src/settings/program.ts reads both).
 */
const WORKSPACE_ARG = { name: 'workspace', help: 'workspace id or name', orOption: 'workspace' } as const satisfies ArgumentDef;

export interface CommandDef {
  /** `generate`, or `keys create` for a subcommand of a group. */
  readonly name: string;
  readonly summary: string;
  readonly args?: readonly ArgumentDef[];
  /** Left out of `storelens --help` (its own --help still works). */
  readonly hidden?: boolean;
}

/** Groups of administration commands (`storelens keys …`). */
export const GROUPS = {
  workspaces: 'administer workspaces',
  members: 'administer workspace members',
  keys: 'administer API keys (owner or admin only)',
  accounts: 'load scored accounts (demos and tests)',
  wallet: "manage a workspace's wallet: credits, standing rules, approvals (owner or admin only)",
  outreach: "configure a workspace's outreach delivery adapter (owner or admin only)",
  oauth: "pre-register assistants for the assistant connector's OAuth sign-in",
} as const;

export const COMMANDS = [
  { name: 'generate', summary: 'write a deterministic synthetic monthly store panel (one file per month)' },
  { name: 'publish', summary: 'aggregate a monthly panel and publish every statistics page (JSON, CSV, markdown, HTML, cards, RSS)' },
  { name: 'serve', summary: 'serve the published statistics (and with --api, the workspace REST API on the same port)' },
  { name: 'start', summary: 'the demo: generate a panel if absent, publish it, serve statistics and API on one port, print a demo key' },
  { name: 'api', summary: 'serve the workspace REST API (/api/v1) over the database' },
  { name: 'ingest', summary: 'load the runs publish wrote (per-store features and signals) into the workspace database' },
  {
    name: 'worker',
    summary:
      'run the background tasks without serving, until SIGTERM: deleting ended sign-in sessions, used or expired invites and expired OAuth records (self-registered assistants unused for 24 hours among them), ingest of --runs, re-ranking, watch checks, monthly statements, growth reports, outreach steps and webhook delivery (signed, retried) — the worker loop `api` also runs unless --requests-only; any number of workers and api processes may share one PostgreSQL database and each unit of work runs once',
  },
  { name: 'workspaces create', summary: 'create a workspace', args: [{ name: 'name', help: 'unique workspace name' }] },
  { name: 'workspaces list', summary: 'list the workspaces, oldest first: name, id, date created, pilot access, activations' },
  { name: 'workspaces pilot', summary: 'grant or withdraw approved pilot access (pilot operations)', args: [{ name: 'state', help: 'on or off', choices: ['on', 'off'] }] },
  {
    name: 'workspaces activate',
    summary: 'record an activation for activation-gated operations (e.g. growth_reports)',
    args: [WORKSPACE_ARG, { name: 'activation', help: 'activation name, e.g. growth_reports' }],
  },
  {
    name: 'workspaces profile',
    summary: "set the workspace's target profile (which stores are its accounts; owner or admin only); without options, print it",
    args: [WORKSPACE_ARG],
  },
  {
    name: 'workspaces wallet-visibility',
    summary: "set who may read the wallet through the assistant connector (owner or admin only): owners (owners and admins; the default) or all (every member); without a value, print it",
    args: [
      WORKSPACE_ARG,
      { name: 'visibility', help: `${WALLET_VISIBILITIES.join(' or ')} (left out: print the current value)`, optional: true },
    ],
  },
  { name: 'members add', summary: 'add a member to a workspace (or change their role; the last owner keeps theirs)' },
  { name: 'members invite', summary: 'add a member (if new) and print a one-time link where they set their password and sign in (valid 7 days)' },
  {
    name: 'members remove',
    summary: 'remove a member: their browser sessions, assistant sign-ins and the API keys they created end at once, on every process (the last owner cannot be removed)',
    args: [WORKSPACE_ARG, { name: 'email', help: 'the member to remove' }],
  },
  { name: 'members list', summary: 'list the members of a workspace: email, role, date added', args: [WORKSPACE_ARG] },
  { name: 'keys create', summary: 'create an API key; the key is printed once' },
  { name: 'keys list', summary: 'list the keys of a workspace (never the secrets)' },
  { name: 'keys revoke', summary: 'revoke a key', args: [{ name: 'key-id', help: 'key id or prefix' }] },
  { name: 'accounts import', summary: 'import NDJSON accounts: one object per line with at least store_id and score, each store_id on one line only', args: [{ name: 'file', help: 'NDJSON file' }] },
  {
    name: 'wallet credit',
    summary: "add money to a workspace's wallet (one ledger entry naming you and the reason)",
    args: [
      WORKSPACE_ARG,
      { name: 'amount', help: 'amount in the currency, e.g. 50 or 50.00 (stored as whole cents)' },
    ],
  },
  { name: 'wallet rules', summary: 'set the standing rules (auto-approve amount, monthly cap); without options, print them', args: [WORKSPACE_ARG] },
  { name: 'wallet approve', summary: 'approve a pending charge: the wallet is debited and the work it waits for starts', args: [{ name: 'id', help: 'approval id' }] },
  { name: 'wallet deny', summary: 'deny a pending charge: nothing is debited and the work it waits for does not happen', args: [{ name: 'id', help: 'approval id' }] },
  {
    name: 'outreach sender',
    summary: "set the workspace's outreach sender (a signed webhook to your own sender; the signing secret is printed once); without --url, print it",
    args: [WORKSPACE_ARG],
  },
  {
    name: 'oauth register',
    summary: 'pre-register an assistant (a public OAuth client using PKCE) under a client id of your choosing; assistants with a metadata document URL need no registration',
    args: [{ name: 'client-id', help: 'the client id the assistant will present' }],
  },
  { name: 'bench', summary: 'run the benchmarks, each against a baseline measured in the same run (what `npm run bench` runs)', hidden: true },
] as const satisfies readonly CommandDef[];

export type CommandName = (typeof COMMANDS)[number]['name'];

export interface SettingDef {
  /** The key in the Config (also commander's name for the flag). */
  readonly name: string;
  /** `--port`; absent for a setting read only from the environment. */
  readonly flag?: string;
  readonly value: Value<unknown>;
  /** Environment variable read when the flag is not given. */
  readonly env?: string;
  readonly default?: unknown;
  /** A default that differs for some commands. */
  readonly defaultFor?: Partial<Record<CommandName, unknown>>;
  readonly required?: boolean;
  readonly help: string;
  readonly commands: readonly CommandName[];
}

/** `storelens bench` runs these (src/bench/index.ts). */
export const BENCHMARKS = ['publish', 'serve', 'cards', 'api', 'ingest', 'learning', 'ranking', 'webhooks', 'scaleout'] as const;

/** The hidden rules the learning benchmark can run (bench/learning-policies.ts says what each is). */
export const LEARNING_RULES = ['generator truth', 'two-part rule', 'new-channel rule', 'plan rule'] as const;

const WALLET = ['wallet credit', 'wallet rules', 'wallet approve', 'wallet deny'] as const;
/** The administration commands that work on a database already there (all but `workspaces create`). */
const ADMIN_EXISTING = ['workspaces list', 'workspaces pilot', 'workspaces profile', 'workspaces wallet-visibility', 'workspaces activate', 'members add', 'members invite', 'members remove', 'members list', 'keys create', 'keys list', 'keys revoke', 'accounts import', ...WALLET, 'outreach sender', 'oauth register'] as const;
const ADMIN = ['workspaces create', ...ADMIN_EXISTING] as const;
const IN_WORKSPACE = ['workspaces pilot', 'members add', 'members invite', 'keys create', 'keys list', 'keys revoke', 'accounts import'] as const;
/** The commands of one workspace that also take it as their first argument (WORKSPACE_ARG), as they always have. */
type FirstIsWorkspace = Extract<(typeof COMMANDS)[number], { readonly args: readonly [typeof WORKSPACE_ARG, ...unknown[]] }>['name'];
const IN_WORKSPACE_OR_FIRST = COMMANDS.filter((c) => 'args' in c && c.args[0] === WORKSPACE_ARG).map((c) => c.name) as FirstIsWorkspace[];
const LISTENERS = ['serve', 'start', 'api'] as const;

/** Options every command takes (`storelens --debug publish …`). */
export const GLOBAL_SETTINGS = [{ name: 'debug', flag: '--debug', value: toggle, help: 'print stack traces for errors', commands: [] }] as const satisfies readonly SettingDef[];

export const SETTINGS = [
  // generate
  { name: 'out', flag: '--out', value: folder, required: true, help: 'folder to write the panel into', commands: ['generate'] },
  { name: 'stores', flag: '--stores', value: positiveIntAtMost(GENERATE_LIMITS.stores, 'stores generate makes'), default: 2000, help: `number of distinct stores over the whole period (at most ${GENERATE_LIMITS.stores.toLocaleString('en-US')}; with --from and --to at most ${GENERATE_LIMITS.months} months and ${GENERATE_LIMITS.storeMonths.toLocaleString('en-US')} store-months)`, commands: ['generate'] },
  { name: 'from', flag: '--from', value: month, required: true, help: 'first month', commands: ['generate'] },
  { name: 'to', flag: '--to', value: month, required: true, help: 'last month', commands: ['generate'] },
  { name: 'seed', flag: '--seed', value: text('s'), default: '1', help: 'seed: the same seed gives byte-identical files', commands: ['generate'] },
  { name: 'format', flag: '--format', value: oneOf('format', ['csv', 'parquet', 'ndjson']), default: 'csv', help: 'file format', commands: ['generate'] },
  { name: 'truth', flag: '--truth', value: text('file'), help: 'also write each last-month store\'s hidden true propensity {store_id, p} (CSV, or NDJSON for .ndjson) for the learning benchmark', commands: ['generate'] },
  // publish
  { name: 'input', flag: '--input', value: folder, required: true, help: 'panel folder: YYYY-MM.csv | .parquet | .ndjson files', commands: ['publish'] },
  { name: 'month', flag: '--month', value: month, help: 'publish (or correct) one month', commands: ['publish'] },
  { name: 'all', flag: '--all', value: toggle, help: 'publish every month in the panel', commands: ['publish'] },
  { name: 'out', flag: '--out', value: folder, default: OUT_DIR, help: 'output folder', commands: ['publish'] },
  { name: 'baseUrl', flag: '--base-url', value: httpUrl, help: `public base URL used in canonical URLs, citations and cards (default: the one --out is published at; http://localhost:${PORT} for a new output folder); a --month run keeps the publication's, --all moves it`, commands: ['publish'] },
  { name: 'runs', flag: '--runs', value: folder, default: RUNS_DIR, help: 'private folder for every store\'s features and monthly signals (never inside --out; of one publication: another --out writing other runs into it is refused)', commands: ['publish'] },
  { name: 'cards', flag: '--cards', value: oneOf('which', ['latest', 'all', 'none']), default: 'latest', help: 'PNG share cards to render', commands: ['publish'] },
  {
    name: 'memoryLimit',
    flag: '--memory-limit',
    value: memorySize,
    env: 'STORELENS_MEMORY_LIMIT',
    help: "memory the panel's database may hold (e.g. 6GiB; default 80% of the machine's): beyond it, it spills to a folder in --out's .cache, removed when the run ends",
    commands: ['publish'],
  },
  {
    name: 'allowShrink',
    flag: '--allow-shrink',
    value: toggle,
    help: 'publish a month holding fewer than half the stores of the month before (refused otherwise, as a partial delivery)',
    commands: ['publish'],
  },
  {
    name: 'allowNewIds',
    flag: '--allow-new-ids',
    value: toggle,
    help: 'publish a month sharing fewer than half its store ids with the month before (refused otherwise, as ids rewritten: leading zeros dropped, a new id scheme)',
    commands: ['publish'],
  },
  {
    name: 'check',
    flag: '--check',
    value: toggle,
    help: 'only check every file of --input against the input contract and print what is wrong (exit 0 clean, 2 with findings); writes nothing, needs no --month or --all',
    commands: ['publish'],
  },
  { name: 'json', flag: '--json', value: toggle, help: 'print a summary as JSON on stdout', commands: ['generate', 'publish'] },
  // serve, start, api
  { name: 'out', flag: '--out', value: folder, default: OUT_DIR, help: 'output folder written by publish (the api and the worker cite its statistics in growth reports)', commands: ['serve', 'api', 'worker'] },
  { name: 'port', flag: '--port', value: port, default: PORT, defaultFor: { api: API_PORT }, help: 'port to listen on (0: any free port)', commands: LISTENERS },
  { name: 'host', flag: '--host', value: text('host'), default: HOST, help: 'interface to listen on', commands: LISTENERS },
  { name: 'api', flag: '--api', value: toggle, help: 'also mount the workspace REST API under /api/v1', commands: ['serve'] },
  {
    name: 'publicUrl',
    flag: '--public-url',
    env: 'STORELENS_PUBLIC_URL',
    value: httpOrigin,
    help: "the origin members and assistants reach the server at (e.g. https://storelens.example.com, behind a proxy that terminates TLS): when https, every cookie is Secure; the OAuth issuer, the MCP URL and the sign-in pages' links use it (default: each request's own Host, over the connection's http)",
    commands: ['serve', 'start', 'api'],
  },
  {
    name: 'trustedProxy',
    flag: '--trusted-proxy',
    env: 'STORELENS_TRUSTED_PROXIES',
    value: addressBlocks,
    help: "the reverse proxies in front of the server, as addresses or CIDR blocks (comma-separated, e.g. 10.0.0.0/8): of a request from one of them, the client address (the sign-in throttle's, the registration limit's) is the right-most X-Forwarded-For address that is not one of them, and X-Forwarded-Proto and -Host are believed; without it these headers are never read and the client address is the connection's",
    commands: ['serve', 'start', 'api'],
  },
  { name: 'requestsOnly', flag: '--requests-only', value: toggle, help: 'answer requests only: run no background task (leave them to `storelens worker` processes on the same database)', commands: ['api'] },
  { name: 'db', flag: '--db', value: text('path'), default: DB_PATH, help: 'SQLite file for --api, created when absent (in a folder that exists; ignored when DATABASE_URL is set)', commands: ['serve'] },
  // operations: probes, metrics, logs
  {
    name: 'opsPort',
    flag: '--ops-port',
    value: port,
    help: 'operations listener: /-/liveness, /-/readiness and the Prometheus metrics at /-/metrics on this port (off unless given; the probes are also on the serving port of serve, start and api)',
    commands: ['serve', 'start', 'api', 'worker'],
  },
  {
    name: 'readinessTimeout',
    flag: '--readiness-timeout',
    value: seconds,
    env: 'STORELENS_READINESS_TIMEOUT',
    default: READINESS_TIMEOUT_MS / 1000,
    help: "how long /-/readiness waits for each check (the database's answer) before it answers 503 naming the check that did not answer in time; keep it under your orchestrator's probe timeout (Kubernetes' timeoutSeconds, 1 s unless set), so that the probe reads why",
    commands: ['serve', 'start', 'api', 'worker'],
  },
  { name: 'opsHost', flag: '--ops-host', value: text('host'), default: HOST, help: 'interface of the operations listener (loopback by default: expose the metrics only where you mean to)', commands: ['serve', 'start', 'api', 'worker'] },
  {
    name: 'logLevel',
    flag: '--log-level',
    value: oneOf('level', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    env: 'STORELENS_LOG_LEVEL',
    default: 'info',
    help: 'the least severe log line written (one JSON line per request, the probes aside, and per piece of background work, at info; a failure at warn)',
    commands: ['serve', 'start', 'api', 'worker'],
  },
  {
    name: 'logFormat',
    flag: '--log-format',
    value: oneOf('format', ['json', 'pretty']),
    env: 'STORELENS_LOG_FORMAT',
    help: 'json: one JSON object per line on stderr, for a log shipper; pretty: readable lines (default: pretty on a terminal, json otherwise)',
    commands: ['serve', 'start', 'api', 'worker'],
  },
  // ingest (and the API servers, which ingest on start and whenever publish writes a new run)
  { name: 'runs', flag: '--runs', value: folder, default: RUNS_DIR, help: 'private runs folder publish writes (per-store features and signals) and the API ingests', commands: ['ingest', 'api', 'serve', 'start', 'worker'] },
  // administration
  // No environment variable: a STORELENS_WORKSPACE left set in a shell would aim `members remove`,
  // `wallet credit` or `workspaces pilot off` at a workspace the line does not name (docs/cli.md).
  { name: 'workspace', flag: '--workspace', value: text('w'), required: true, help: 'workspace id or name', commands: IN_WORKSPACE },
  { name: 'workspace', flag: '--workspace', value: text('w'), required: true, help: 'workspace id or name (or give it as the first argument)', commands: IN_WORKSPACE_OR_FIRST },
  { name: 'email', flag: '--email', value: memberEmail, required: true, help: 'member email', commands: ['members add', 'members invite'] },
  { name: 'role', flag: '--role', value: oneOf('role', ROLES), default: 'member', help: 'workspace role of a new member (an existing member keeps theirs)', commands: ['members invite'] },
  { name: 'baseUrl', flag: '--base-url', value: httpUrl, default: `http://localhost:${PORT}`, help: 'the server members open (the invite link starts with it)', commands: ['members invite'] },
  { name: 'role', flag: '--role', value: oneOf('role', ROLES), required: true, help: 'workspace role', commands: ['members add'] },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin creating the key', commands: ['keys create'] },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin revoking the key', commands: ['keys revoke'] },
  { name: 'name', flag: '--name', value: text('name'), required: true, help: 'a name for the key', commands: ['keys create'] },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin setting the profile', commands: ['workspaces profile'] },
  { name: 'countries', flag: '--countries', value: text('list'), help: 'ISO 3166-1 alpha-2 codes, comma-separated (e.g. US,GB)', commands: ['workspaces profile'] },
  { name: 'categories', flag: '--categories', value: text('list'), help: 'panel categories, comma-separated (use --category for one containing a comma)', commands: ['workspaces profile'] },
  { name: 'category', flag: '--category', value: texts('name'), help: 'one panel category, kept as the panel keeps text: blanks at the ends trimmed, Unicode NFC (repeatable; may contain commas)', commands: ['workspaces profile'] },
  { name: 'plans', flag: '--plans', value: text('list'), help: 'plans, comma-separated (e.g. plus,advanced)', commands: ['workspaces profile'] },
  { name: 'minVisits', flag: '--min-visits', value: nonNegativeInt, help: 'at least this many monthly visits', commands: ['workspaces profile'] },
  { name: 'maxVisits', flag: '--max-visits', value: nonNegativeInt, help: 'at most this many monthly visits', commands: ['workspaces profile'] },
  { name: 'minRevenue', flag: '--min-revenue', value: nonNegativeNumber, help: 'at least this estimated monthly revenue (USD)', commands: ['workspaces profile'] },
  { name: 'maxRevenue', flag: '--max-revenue', value: nonNegativeNumber, help: 'at most this estimated monthly revenue (USD)', commands: ['workspaces profile'] },
  { name: 'minProducts', flag: '--min-products', value: nonNegativeInt, help: 'at least this many products', commands: ['workspaces profile'] },
  { name: 'maxProducts', flag: '--max-products', value: nonNegativeInt, help: 'at most this many products', commands: ['workspaces profile'] },
  { name: 'clear', flag: '--clear', value: toggle, help: 'remove the profile: the workspace sees every store', commands: ['workspaces profile'] },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin setting (or printing) the wallet visibility', commands: ['workspaces wallet-visibility'] },
  {
    name: 'access',
    flag: '--access',
    value: text('list'),
    help: `self-serve choices, comma-separated: ${Object.keys(ACCESS_CHOICES).join(', ')}`,
    commands: ['keys create'],
  },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin acting on the wallet', commands: WALLET },
  { name: 'reason', flag: '--reason', value: text('text'), required: true, help: 'why the money is added (kept on the ledger entry)', commands: ['wallet credit'] },
  { name: 'idempotencyKey', flag: '--idempotency-key', value: text('key'), help: 'a stable identity for this credit: running the command again with it credits nothing more', commands: ['wallet credit'] },
  { name: 'autoApproveBelow', flag: '--auto-approve-below', value: text('amount|off'), help: 'charges of at least this amount wait for an approval (off: none waits)', commands: ['wallet rules'] },
  { name: 'monthlyCap', flag: '--monthly-cap', value: text('amount|off'), help: 'the most a calendar month may spend (off: no cap)', commands: ['wallet rules'] },
  { name: 'as', flag: '--as', value: memberEmail, required: true, help: 'the owner or admin setting the sender', commands: ['outreach sender'] },
  { name: 'url', flag: '--url', value: targetUrlValue, help: "your sender's https URL: each outreach step is POSTed there, signed like webhook deliveries", commands: ['outreach sender'] },
  { name: 'clear', flag: '--clear', value: toggle, help: 'remove the sender: steps are held', commands: ['outreach sender'] },
  { name: 'scopes', flag: '--scopes', value: text('list'), help: 'operator grant of further scopes, comma-separated (e.g. manage:webhooks)', commands: ['keys create'] },
  { name: 'redirectUri', flag: '--redirect-uri', value: texts('url'), required: true, help: "where the assistant receives the sign-in's answer (repeat for several)", commands: ['oauth register'] },
  { name: 'clientName', flag: '--client-name', value: text('name'), help: 'the name the consent screen shows', commands: ['oauth register'] },
  // the workspace database
  // Only the commands that may start an installation create the file (compose/open-database.ts).
  { name: 'db', flag: '--db', value: text('path'), default: DB_PATH, help: 'SQLite file, created when absent (in a folder that exists; ignored when DATABASE_URL is set)', commands: ['api', 'worker', 'workspaces create'] },
  {
    name: 'db',
    flag: '--db',
    value: text('path'),
    default: DB_PATH,
    help: 'SQLite file, which must exist: `storelens workspaces create` or `storelens api` creates it (ignored when DATABASE_URL is set)',
    commands: ['ingest', ...ADMIN_EXISTING],
  },
  {
    name: 'databaseUrl',
    env: 'DATABASE_URL',
    value: text('url'),
    help: 'a postgres:// URL: the workspace database is that PostgreSQL database instead of the SQLite file',
    commands: ['serve', 'start', 'api', 'ingest', 'worker', ...ADMIN],
  },
  { name: 'json', flag: '--json', value: toggle, help: 'print exactly one JSON object on stdout', commands: ['ingest', ...ADMIN] },
  // webhooks
  {
    name: 'webhooksAllowLocal',
    flag: '--webhooks-allow-local',
    env: 'STORELENS_WEBHOOKS_ALLOW_LOCAL',
    value: envSwitch,
    help: 'local development and tests only: webhook endpoints, outreach senders, and the client metadata documents of assistants signing in with OAuth, may use http and loopback addresses (off by default)',
    commands: ['serve', 'start', 'api', 'worker', 'outreach sender'],
  },
  {
    name: 'secretKey',
    env: 'STORELENS_SECRET_KEY',
    value: serverKey,
    help: 'server key (32 bytes: 64 hex digits or base64) that encrypts the signing secrets of webhook endpoints and outreach senders; unset: one generated into the database',
    commands: ['serve', 'start', 'api', 'worker', 'outreach sender'],
  },
  {
    name: 'previousSecretKey',
    env: 'STORELENS_SECRET_KEY_PREVIOUS',
    value: serverKey,
    help: 'during a server key rotation: the key being replaced (secrets under it are re-encrypted at start)',
    commands: ['serve', 'start', 'api', 'worker', 'outreach sender'],
  },
  // development
  {
    name: 'validateResponses',
    env: 'STORELENS_VALIDATE_RESPONSES',
    value: envSwitch,
    help: 'development and tests only: check every JSON answer of /api/v1 (and of its MCP tools) against the response schema openapi.json documents; a mismatch is answered 500 and logged on stderr (off by default)',
    commands: ['serve', 'start', 'api'],
  },
  // bench
  { name: 'stores', flag: '--stores', value: positiveInt, env: 'BENCH_STORES', default: 1_000_000, help: 'stores in the publish benchmark panel', commands: ['bench'] },
  { name: 'memoryLimit', flag: '--memory-limit', value: memorySize, env: 'BENCH_MEMORY_LIMIT', help: 'DuckDB memory limit of every publish in the publish benchmark, and of generating its panel (default: DuckDB\'s, 80% of the machine\'s memory)', commands: ['bench'] },
  { name: 'rankingAccounts', flag: '--ranking-accounts', value: positiveInt, env: 'BENCH_ACCOUNTS', default: 200_000, help: 'visible accounts of the workspace the ranking benchmark refits', commands: ['bench'] },
  { name: 'ingestStores', flag: '--ingest-stores', value: positiveInt, env: 'BENCH_STORES', default: 20_000, help: 'stores per month in the ingest benchmark runs (BENCH_STORES sets both)', commands: ['bench'] },
  { name: 'from', flag: '--from', value: month, env: 'BENCH_FROM', default: '2025-10', help: 'first month of the publish benchmark panel', commands: ['bench'] },
  { name: 'to', flag: '--to', value: month, env: 'BENCH_TO', default: '2026-10', help: 'last month of the publish benchmark panel', commands: ['bench'] },
  { name: 'data', flag: '--data', value: folder, env: 'BENCH_DATA', default: 'bench-data', help: 'folder caching the generated benchmark panels between runs', commands: ['bench'] },
  { name: 'learningSeeds', flag: '--learning-seeds', value: seedRange, env: 'BENCH_LEARNING_SEEDS', default: 10, help: 'seeds the learning benchmark runs: n for seeds 1 to n (fewer for a quick look; the documented figures take 10), or a-b (11-20: seeds the model\'s settings were not chosen on)', commands: ['bench'] },
  { name: 'learningRules', flag: '--learning-rules', value: someOf('list', LEARNING_RULES), env: 'BENCH_LEARNING_RULES', default: LEARNING_RULES, help: `hidden rules the learning benchmark runs, comma-separated: ${LEARNING_RULES.join(', ')}`, commands: ['bench'] },
  { name: 'databaseUrl', env: 'DATABASE_URL', value: text('url'), help: 'a postgres:// URL: the api and scale-out benchmarks also run on PostgreSQL, each in a schema of its own there (skipped without it)', commands: ['bench'] },
  {
    name: 'only',
    flag: '--only',
    value: someOf('list', BENCHMARKS),
    env: 'BENCH_ONLY',
    default: BENCHMARKS,
    help: `benchmarks to run, comma-separated: ${BENCHMARKS.join(', ')}`,
    commands: ['bench'],
  },
] as const satisfies readonly SettingDef[];

export type Setting = (typeof SETTINGS)[number];

/** The settings `command` takes, in table order. */
export function settingsOf(command: CommandName): SettingDef[] {
  return SETTINGS.filter((s) => (s.commands as readonly string[]).includes(command));
}

export function defaultFor(setting: SettingDef, command: CommandName): unknown {
  return setting.defaultFor && command in setting.defaultFor ? setting.defaultFor[command] : setting.default;
}

/** `--port <port>`, or `--json` for a switch. */
export function flagWithArg(s: SettingDef): string {
  return s.value.arg ? `${s.flag} <${s.value.arg}>` : s.flag!;
}
