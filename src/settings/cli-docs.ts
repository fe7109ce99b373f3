/**
 * The option list of docs/cli.md, generated from the settings table between two markers; a test
 * fails when docs/cli.md and the table disagree, and `npm run cli-docs` rewrites the section.
 */
import { argumentUsage, COMMANDS, type CommandDef, type CommandName, GLOBAL_SETTINGS, orOptionForms, orOptionSetting, PROGRAM, type SettingDef, defaultFor, flagWithArg, settingsOf } from './table.js';

export const START = '<!-- settings:start -->';
export const END = '<!-- settings:end -->';

const cell = (text: string) => text.replaceAll('|', '\\|');
const code = (text: string) => `\`${text}\``;

function shown(value: unknown): string {
  return Array.isArray(value) ? code(value.join(',')) : code(String(value));
}

function row(s: SettingDef, command: CommandName): string {
  const fallback = defaultFor(s, command);
  const dflt = s.required ? 'required' : fallback !== undefined ? shown(fallback) : '';
  const choices = s.value.choices ? ` (one of: ${s.value.choices.join(', ')})` : '';
  return `| ${s.flag ? code(flagWithArg(s)) : ''} | ${s.env ? code(s.env) : ''} | ${dflt} | ${cell(s.help + choices)} |`;
}

function usage(def: CommandDef): string {
  return [PROGRAM.name, def.name, ...(def.args ?? []).map(argumentUsage)].join(' ');
}

function section(def: CommandDef): string {
  const lines = [`#### ${code(usage(def))}`, '', `${def.summary[0].toUpperCase()}${def.summary.slice(1)}.`, ''];
  for (const a of def.args ?? []) {
    if (a.orOption) {
      const [withFlag, withArgument] = orOptionForms(def, a);
      lines.push(`- ${code(flagWithArg(orOptionSetting(a)))} or ${code(`<${a.name}>`)}: ${a.help}; ${code(withFlag)} and ${code(withArgument)} are the same command (two different ${a.name}s named both ways are refused)`);
    } else lines.push(`- ${code(argumentUsage(a))}: ${a.help}${a.choices ? ` (one of: ${a.choices.join(', ')})` : ''}`);
  }
  if (def.args?.length) lines.push('');
  const settings = settingsOf(def.name as CommandName);
  if (settings.length) {
    lines.push('| option | environment | default | |', '|---|---|---|---|');
    for (const s of settings) lines.push(row(s, def.name as CommandName));
    lines.push('');
  }
  return lines.join('\n');
}

/** The generated section, markers included. */
export function settingsSection(): string {
  const global = GLOBAL_SETTINGS.map((s: SettingDef) => `${code(flagWithArg(s))} (${s.help})`).join(', ');
  return [
    START,
    '',
    `Every command also takes ${global} and \`--help\`. A flag wins over its environment variable, which wins over the default.`,
    'This list is generated from `src/settings/table.ts`: edit the table, then `npm run cli-docs` rewrites it.',
    '',
    ...(COMMANDS as readonly CommandDef[]).map(section),
    END,
  ].join('\n');
}

/** `page` (docs/cli.md) with its section between the markers replaced by the generated one. */
export function withSettingsSection(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/cli.md has no ${START} … ${END} section`);
  return page.slice(0, start) + settingsSection() + page.slice(end + END.length);
}
