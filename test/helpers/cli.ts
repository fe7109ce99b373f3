/**
 * Running storelens the way a person or a CI job does, inside the test process: `runCli` calls
 * `main` with a captured Env (stdout, stderr, fixed clock); `generate` and `publishPanel` are the
 * programmatic entries with test defaults (fixed clock, no cards).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { main } from '../../src/cli.js';
import type { Env } from '../../src/core/env.js';
import { openDuck } from '../../src/panel/duck.js';
import { generatePanel } from '../../src/panel/generate.js';
import type { PanelFormat } from '../../src/panel/read.js';
import { publish, type PublishOptions, type PublishSummary } from '../../src/publish/pipeline.js';
import type { Slug, StatsDocument } from '../../src/stats/types.js';

export const FIXED_NOW = new Date('2026-11-02T09:30:00.000Z');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** An Env whose stdout and stderr are captured as text; never touches process.stdout/stderr. */
export function capturedEnv(now: Date = FIXED_NOW, vars: Env['env'] = {}): { env: Env; stdout: () => string; stderr: () => string } {
  const out = collector();
  const err = collector();
  return { env: { env: vars, stdout: out.stream, stderr: err.stream, now: () => now }, stdout: out.text, stderr: err.text };
}

/** `storelens …args` with a captured Env. */
export async function runCli(args: string[], now: Date = FIXED_NOW): Promise<CliResult> {
  const c = capturedEnv(now);
  const code = await main(['node', 'storelens', ...args], c.env);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

export interface GenerateSpec {
  stores: number;
  from: string;
  to: string;
  seed: string;
  format?: PanelFormat;
}

/** A synthetic panel written into `dir` (one file per month); returns the files. */
export async function generate(dir: string, spec: GenerateSpec): Promise<string[]> {
  const duck = await openDuck();
  try {
    return await generatePanel(duck, { out: dir, format: spec.format ?? 'csv', ...spec });
  } finally {
    duck.close();
  }
}

export const BASE_URL = 'https://stats.example.com';

/** publish() with a fixed clock, no cards and every month unless told otherwise. */
export function publishPanel(input: string, out: string, options: Partial<PublishOptions> = {}): Promise<PublishSummary> {
  return publish({ input, out, months: 'all', baseUrl: BASE_URL, cards: 'none', now: () => FIXED_NOW, ...options });
}

/** A published statistics document: the latest (`month` absent) or one month's. */
export async function readDocument(out: string, slug: Slug, month?: string): Promise<StatsDocument> {
  const file = month ? path.join(out, 'api', 'data', slug, `${month}.json`) : path.join(out, 'api', 'data', `${slug}.json`);
  return JSON.parse(await readFile(file, 'utf8')) as StatsDocument;
}

/** A published CSV, as text. */
export const readCsv = (out: string, slug: Slug): Promise<string> => readFile(path.join(out, 'api', 'data', `${slug}.csv`), 'utf8');

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, for a successful `--json` run (which must print exactly one line). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Runs admin commands in-process against a test database (`--db` for SQLite, DATABASE_URL for
 * PostgreSQL); `db` is read at each call, so a suite can open its database in beforeAll.
 */
export function adminCli(db: () => { dbPath?: string; databaseUrl?: string }): (...args: string[]) => Promise<AdminResult> {
  return async (...args) => {
    const t = db();
    const c = capturedEnv(new Date('2026-02-01T09:00:00Z'), t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {});
    const code = await main(['node', 'storelens', ...args, ...(t.dbPath ? ['--db', t.dbPath] : [])], c.env);
    const stdout = c.stdout();
    let json: unknown;
    if (args.includes('--json') && code === 0) {
      expect(stdout.trim().split('\n')).toHaveLength(1);
      json = JSON.parse(stdout);
    }
    return { code, stdout, stderr: c.stderr(), json };
  };
}

/** Through the CLI: workspace `acme` with an owner, an admin and a member (`<role>@acme.test`); resolves to its id. */
export async function seedAcme(run: (...args: string[]) => Promise<AdminResult>): Promise<string> {
  const created = await run('workspaces', 'create', 'acme', '--json');
  expect(created.code).toBe(0);
  for (const role of ['owner', 'admin', 'member']) await run('members', 'add', '--workspace', 'acme', '--email', `${role}@acme.test`, '--role', role);
  return (created.json as { id: string }).id;
}
