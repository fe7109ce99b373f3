/**
 * Every setting is documented where a user looks: its command's --help and docs/cli.md, whose
 * option list is generated from the table and must not drift from it.
 */
import { readFile } from 'node:fs/promises';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { END, START, settingsSection } from '../../src/settings/cli-docs.js';
import { COMMANDS, type CommandName, GLOBAL_SETTINGS, SETTINGS, type SettingDef, flagWithArg, settingsOf } from '../../src/settings/table.js';
import { capturedEnv } from '../helpers/cli.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');
const names = COMMANDS.map((c) => c.name as CommandName);
const ALL: readonly SettingDef[] = [...SETTINGS, ...GLOBAL_SETTINGS];

async function help(...words: string[]): Promise<string> {
  const c = capturedEnv();
  const code = await main(['node', 'storelens', ...words, '--help'], c.env);
  expect(code, c.stderr()).toBe(0);
  return flat(c.stdout());
}

async function cliDocsSection(): Promise<string> {
  const page = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  expect(start, 'docs/cli.md has the settings markers').toBeGreaterThanOrEqual(0);
  return page.slice(start, end + END.length);
}

/** A command's part of the docs/cli.md option list, its table cells unescaped. */
function commandPart(section: string, command: string): string {
  const parts = section.split(/^#### /m);
  const part = parts.find((p) => p.startsWith(`\`storelens ${command}`));
  expect(part, `docs/cli.md documents storelens ${command}`).toBeDefined();
  return flat(part!.replaceAll('\\|', '|'));
}

describe('the settings table', () => {
  it('gives every command and setting a help text, and takes each flag once per command', () => {
    for (const s of ALL) expect(s.help.trim(), s.name).not.toBe('');
    for (const c of COMMANDS) expect(c.summary.trim(), c.name).not.toBe('');
    for (const command of names) {
      const settings = settingsOf(command);
      expect(new Set(settings.map((s) => s.name)).size, command).toBe(settings.length);
      const flags = settings.filter((s) => s.flag).map((s) => s.flag);
      expect(new Set([...flags, ...GLOBAL_SETTINGS.map((s) => s.flag)]).size, command).toBe(flags.length + GLOBAL_SETTINGS.length);
    }
  });

  it("names each setting as commander names its flag, so the Config key is the flag's", () => {
    for (const s of ALL.filter((s) => s.flag)) {
      expect(new Option(flagWithArg(s)).attributeName(), s.flag).toBe(s.name);
    }
  });

  it('takes every setting in at least one command, and only commands that exist', () => {
    for (const s of SETTINGS) {
      expect(s.commands.length, s.name).toBeGreaterThan(0);
      for (const c of s.commands) expect(names).toContain(c);
    }
  });
});

describe('--help', () => {
  it('lists every visible command with its summary', async () => {
    const text = await help();
    for (const c of COMMANDS.filter((c) => !('hidden' in c && c.hidden))) {
      const [group, sub] = c.name.split(' ');
      if (sub) expect(flat(await help(group))).toContain(flat(c.summary));
      else expect(text).toContain(flat(c.summary));
    }
    expect(text).toContain('--debug');
    expect(text).not.toContain('../shared');
  });

  it.each(names)('of %s documents each of its settings: flag, help, environment variable and default', async (command) => {
    const text = await help(...command.split(' '));
    for (const s of settingsOf(command)) {
      if (s.flag) expect(text, s.name).toContain(flagWithArg(s));
      expect(text, s.name).toContain(flat(s.help));
      if (s.env) expect(text, s.name).toContain(s.env);
    }
    expect(text).not.toContain('../shared');
  });

  it('shows the default port of each listening command', async () => {
    expect(await help('serve')).toMatch(/--port <port> port to listen on .*\(default: 8080\)/);
    expect(await help('start')).toMatch(/\(default: 8080\)/);
    expect(await help('api')).toMatch(/--port <port> port to listen on .*\(default: 8081\)/);
  });
});

describe('docs/cli.md', () => {
  it('holds the option list generated from the table (run `npm run cli-docs` after changing the table)', async () => {
    expect(await cliDocsSection()).toBe(settingsSection());
  });

  it.each(names)('documents each setting of %s: flag, environment variable and help', async (command) => {
    const part = commandPart(await cliDocsSection(), command);
    for (const s of settingsOf(command)) {
      if (s.flag) expect(part, s.name).toContain(`\`${flagWithArg(s)}\``);
      if (s.env) expect(part, s.name).toContain(`\`${s.env}\``);
      expect(part, s.name).toContain(flat(s.help));
    }
  });

  it('never sends a reader to ../shared/', async () => {
    expect(await cliDocsSection()).not.toContain('../shared');
  });
});
