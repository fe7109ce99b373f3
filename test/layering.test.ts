/**
 * The layering of src/, held by its import graph (dpdm, as in import-cycles.test.ts). Each rule
 * names the importers it covers, what they must never import and why; a failure lists every
 * offending import as `file → imported file`. Type-only imports count: a room that names another
 * room's types knows that room (the storage kernel naming a module's row type knows the domain).
 */
import { existsSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { srcImports } from './helpers/import-graph.js';

type Match = (target: string) => boolean;

/** src/ modules in any of `rooms` (a folder such as 'core' or a top-level file such as 'cli.ts'). */
const inside = (...rooms: string[]): Match => (t) => rooms.some((r) => t === `src/${r}` || t.startsWith(`src/${r}/`));
/** src/ modules in none of `rooms`; packages are not in src/. */
const outside = (...rooms: string[]): Match => (t) => t.startsWith('src/') && !inside(...rooms)(t);
/** Packages and node: modules named (or under a scope ending in '/'). */
const packages = (...names: string[]): Match => (t) => names.some((n) => t === n || t.startsWith(n.endsWith('/') ? n : `${n}/`));
const anyOf = (...ms: Match[]): Match => (t) => ms.some((m) => m(t));

/** The modules of the workspace half: every folder of src/ that declares itself in a module.ts. */
const MODULES = readdirSync('src', { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(`src/${e.name}/module.ts`))
  .map((e) => e.name);
/** Everything the workspace half stands on besides the modules: storage, tenancy, composition, HTTP platforms. */
const WORKSPACE = [...MODULES, 'db', 'workspaces', 'compose', 'api', 'mcp', 'web'];
/** HTTP code, in src/ and out. */
const HTTP = anyOf(inside('http', 'api', 'mcp', 'web', 'serve'), packages('fastify', '@fastify/', 'node:http', 'node:https', 'node:http2'));

interface Rule {
  /** The rule as a sentence: the test's name. */
  name: string;
  /** One line of why. */
  why: string;
  /** The importing modules the rule covers. */
  from: Match;
  /** What they must not import. */
  never: Match;
  /** Allowed imports as `file → imported file`, each with its reason beside it. */
  except?: string[];
  /** Check the run-time graph only (type-only imports allowed). */
  runtimeOnly?: boolean;
}

const RULES: Rule[] = [
  {
    name: 'src/core imports nothing in src outside src/core',
    why: 'the leaf vocabulary every room shares; one import upward and every room depends on that room',
    from: inside('core'),
    never: outside('core'),
  },
  {
    name: 'src/db imports only src/db and src/core, and no HTTP',
    why: 'the storage kernel knows no domain (each module adds its tables to db/database.ts from its tables.ts) and no transport',
    from: inside('db'),
    never: anyOf(outside('db', 'core'), HTTP),
  },
  {
    name: 'the statistics half (panel, stats, render, publish, serve) imports nothing of the workspace half',
    why: 'public statistics are built and served from the panel alone, never from a workspace database or its API',
    from: inside('panel', 'stats', 'render', 'publish', 'serve'),
    never: inside(...WORKSPACE),
    // The contact file the data team puts beside the panel: publish checks it and carries it into
    // the private runs folder for ingest; it is never published.
    except: ['src/publish/contacts-sink.ts → src/contacts/source.ts'],
  },
  {
    name: 'src/stats imports no panel, render, publish, serve or HTTP',
    why: 'aggregation and protection are pure: plain data in, plain data out (the DuckDB edge, panel/, calls them)',
    from: inside('stats'),
    never: anyOf(inside('panel', 'render', 'publish', 'serve'), HTTP),
  },
  {
    name: 'src/render imports no panel, publish, serve or HTTP',
    why: 'rendering is pure: a statistics document in, strings and buffers out; publish writes them',
    from: inside('render'),
    never: anyOf(inside('panel', 'publish', 'serve'), HTTP),
  },
  {
    name: 'src/panel imports no render, publish or serve',
    why: 'reading the panel comes first; what is made of it later must not leak back into reading it',
    from: inside('panel'),
    never: inside('render', 'publish', 'serve'),
  },
  {
    name: 'src/serve imports no stats, panel or render',
    why: 'the public server serves a release as files (publish/manifest.ts, publish/release.ts); how statistics are made is not its business',
    from: inside('serve'),
    never: inside('stats', 'panel', 'render'),
  },
  {
    name: 'only src/cli.ts imports src/commands',
    why: 'cli.ts imports each command lazily so --help stays instant; what commands share lives in a room of its own',
    from: outside('cli.ts', 'commands'),
    never: inside('commands'),
  },
  {
    name: "a module's event declarations (src/<module>/events.ts) import only src/core and the vocabulary they name",
    why: 'the catalog (compose/events.ts) reads every declaration: one that imported its module\'s logic would bring the module (and its outbox import) along',
    from: anyOf((t) => /^src\/[^/]+\/events\.ts$/.test(t) && t !== 'src/compose/events.ts', inside('watches/types.ts')),
    never: outside('core'),
    // The health list, itself importing nothing in src.
    except: ['src/watches/events.ts → src/watches/types.ts'],
  },
  {
    name: 'no repository (store) or route table appends to the outbox',
    why: "an event is emitted by its module's logic in the transaction of the change (deals/pipeline.ts, contacts/add-contact.ts, watches/set-health.ts, accounts/refresh.ts), never on the side",
    from: (t) => /^src\/[^/]+\/([^/]+-)?(store|routes)\.ts$/.test(t),
    never: (t) => t === 'src/webhooks/outbox.ts',
  },
  {
    name: 'outside the composition roots (cli, commands, bench), nothing imports src/compose',
    why: 'compose/ wires every module together; a room that imported it would depend on all of them (the Database type is db/database.ts, the module contract api/workspace-module.ts)',
    from: outside('compose', 'commands', 'cli.ts', 'bench'),
    never: inside('compose'),
  },
];

async function violations(rule: Rule): Promise<string[]> {
  const imports = await srcImports({ typeImports: !rule.runtimeOnly });
  const found = imports.filter((i) => rule.from(i.from) && rule.never(i.to)).map((i) => `${i.from} → ${i.to}`);
  return [...new Set(found)].filter((v) => !rule.except?.includes(v));
}

/** Imports that enter a module (a folder with a module.ts) from outside it anywhere but its index.ts. */
async function publicFaceViolations(): Promise<string[]> {
  const moduleOf = (t: string) => MODULES.find((m) => inside(m)(t));
  const roots = inside('compose', 'commands', 'cli.ts', 'bench');
  const allowed = (from: string, to: string) =>
    to === `src/${moduleOf(to)}/index.ts` ||
    // The contact file the data team puts beside the panel, which publish checks and carries (see the statistics-half rule).
    (from === 'src/publish/contacts-sink.ts' && to === 'src/contacts/source.ts');
  const imports = await srcImports({ typeImports: true });
  const found = imports.filter((i) => moduleOf(i.to) !== undefined && moduleOf(i.to) !== moduleOf(i.from) && !roots(i.from) && !allowed(i.from, i.to));
  return [...new Set(found.map((i) => `${i.from} → ${i.to}`))];
}

describe('layering of src/', () => {
  // Parsing src/ takes seconds: done once, under the hook's longer timeout.
  beforeAll(() => Promise.all([srcImports({ typeImports: true }), srcImports({ typeImports: false })]));

  for (const rule of RULES) {
    it(rule.name, async () => {
      expect(await violations(rule), rule.why).toEqual([]);
    });
  }

  it('lets another module reach a module only through its public face (src/<module>/index.ts)', async () => {
    expect(await publicFaceViolations(), "a module's files other than index.ts are its internals; compose/ and the other roots read module.ts and each events.ts").toEqual([]);
  });

  it('allows no exception that no longer happens', async () => {
    const stale: string[] = [];
    for (const rule of RULES) {
      const imports = await srcImports({ typeImports: !rule.runtimeOnly });
      const seen = new Set(imports.map((i) => `${i.from} → ${i.to}`));
      stale.push(...(rule.except ?? []).filter((e) => !seen.has(e)));
    }
    expect(stale).toEqual([]);
  });
});
