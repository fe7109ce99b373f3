/**
 * The commander program, built from the settings table: every command, its arguments, its
 * options with their parsers, defaults and help, and an "Environment:" section for the settings
 * read from environment variables. A command's action resolves its frozen Config and hands it on.
 */
import { readFileSync } from 'node:fs';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { type Config, resolveConfig } from './config.js';
import { HiddenValueError } from './values.js';
import { type ArgumentDef, argumentUsage, COMMANDS, type CommandDef, type CommandName, GLOBAL_SETTINGS, GROUPS, orOptionForms, orOptionSetting, PROGRAM, type SettingDef, defaultFor, flagWithArg, settingsOf } from './table.js';

/** A parsed command line: the command, its Config and its positional arguments. */
export type Invocation = { [C in CommandName]: { readonly command: C; readonly config: Config<C>; readonly args: readonly string[] } }[CommandName];

/** The text --help shows for a setting (its help, and where else it can come from). */
export function helpText(s: SettingDef): string {
  return s.env ? `${s.help} (env: ${s.env})` : s.help;
}

/** A flag's value parsed; a refusal that must not show the value names the flag alone (exit 2). */
function parseFlag(s: SettingDef, raw: string): unknown {
  try {
    return s.value.parse(raw);
  } catch (e) {
    if (e instanceof HiddenValueError) throw new CliError(`${s.flag}: ${e.message}`, 2);
    throw e;
  }
}

/**
 * A flag taking one value is refused when given twice (`--db a.db … --db b.db`): which one was
 * meant cannot be told, and the last one silently winning hid the other. Checked once the value
 * parsed, so a refusal of the value (shown or not) comes first.
 */
function onlyOnce(o: Option, s: SettingDef): void {
  const parse = o.parseArg!;
  let given = false;
  o.argParser((raw: string, previous: unknown) => {
    const value = parse.call(o, raw, previous);
    if (given) throw new CliError(`${s.flag}: given more than once; give it once`, 2);
    given = true;
    return value;
  });
}

function option(s: SettingDef, command: CommandName | null): Option {
  const o = new Option(flagWithArg(s), helpText(s));
  if (s.value.choices) o.choices(s.value.choices);
  else if (s.value.repeatable) o.argParser((raw: string, previous: unknown) => [...((previous as unknown[] | undefined) ?? []), ...(parseFlag(s, raw) as unknown[])]);
  else if (s.value.arg) o.argParser((raw: string) => parseFlag(s, raw));
  if (s.value.arg && !s.value.repeatable) onlyOnce(o, s);
  const fallback = command ? defaultFor(s, command) : undefined;
  if (fallback !== undefined) o.default(fallback, Array.isArray(fallback) ? fallback.join(',') : undefined);
  return o;
}

/**
 * A required option left out is refused here, once commander has refused unknown options, not
 * by commander's own mandatory check, which runs first: `publish --inptu x` would say that
 * --input is missing, never that --inptu is unknown (and meant --input).
 */
function requireOptions(cmd: Command, settings: readonly SettingDef[]): void {
  const missing = settings.find((s) => s.required && s.flag && cmd.getOptionValue(s.name) === undefined);
  if (missing) cmd.error(`error: required option '${flagWithArg(missing)}' not specified`, { code: 'commander.missingMandatoryOptionValue', exitCode: 2 });
}

function environmentHelp(settings: readonly SettingDef[]): string {
  const vars = settings.filter((s) => !s.flag && s.env);
  if (!vars.length) return '';
  const width = Math.max(...vars.map((s) => s.env!.length));
  return `\nEnvironment:\n${vars.map((s) => `  ${s.env!.padEnd(width)}  ${s.help}`).join('\n')}\n`;
}

/** The argument a flag may stand for (`members remove W E` or `members remove E --workspace W`), if any. */
function orOptionArgument(def: CommandDef): ArgumentDef | undefined {
  const args = def.args ?? [];
  if (args.slice(1).some((a) => a.orOption)) throw new Error(`${def.name}: only the first argument may stand for a flag`);
  return args[0]?.orOption ? args[0] : undefined;
}

/** How the command is written, as its usage line and help show it: `storelens members remove [options] (--workspace <w> | <workspace>) <email>`. */
function usageOf(def: CommandDef): string {
  return ['[options]', ...(def.args ?? []).map(argumentUsage)].join(' ');
}

/**
 * The arguments given, once the first argument that a flag may stand for (`workspace`) is told
 * apart from the others, for every command declaring one — the one rule of src/settings/table.ts's
 * WORKSPACE_ARG. With more arguments than the others take, the first is the workspace; with
 * --workspace, the arguments are the others; without it, the first is the workspace as long as
 * the others' required ones remain. A workspace named both ways, differently, is refused, as is
 * one named neither way (exit 2, with the usage line). The workspace named by the argument
 * becomes the flag's value, so the Config holds it whichever way it came.
 */
function takeOrOptionArgument(cmd: Command, def: CommandDef, first: ArgumentDef): string[] {
  const rest = (def.args ?? []).slice(1);
  const required = rest.filter((a) => !a.optional).length;
  const given = cmd.args;
  const s = orOptionSetting(first);
  const flag = cmd.getOptionValue(s.name) as string | undefined;
  const usage = `Usage: ${cmd.createHelp().commandUsage(cmd)}`;
  const positional = given.length > rest.length || (flag === undefined && given.length > required);
  if (!positional && flag === undefined) {
    // One argument short: `members remove W` (the email missing) reads as `members remove E` (the
    // workspace missing) does, so both are named.
    const also = given.length > 0 ? ` and the ${rest.filter((a) => !a.optional).map((a) => a.name).join(' and the ')}` : '';
    cmd.error(`error: name the ${first.name}: ${flagWithArg(s)}, or as the first argument${also}\n${usage}`, { code: 'commander.missingArgument', exitCode: 2 });
  }
  if (positional) {
    // The argument is read as the flag's value is, so `members list ""` is refused as `--workspace ""` is.
    let value: unknown;
    try {
      value = parseFlag(s, given[0]!);
    } catch (e) {
      if (!(e instanceof InvalidArgumentError)) throw e;
      cmd.error(`error: command-argument value '${given[0]}' is invalid for argument '${first.name}'. ${e.message}`, { code: 'commander.invalidArgument', exitCode: 2 });
    }
    if (flag !== undefined && flag !== value) {
      cmd.error(`error: two ${first.name}s named: "${given[0]}" (the first argument) and "${flag}" (${s.flag}): give one\n${usage}`, { code: 'storelens.conflictingArgument', exitCode: 2 });
    }
    cmd.setOptionValueWithSource(s.name, value, 'cli');
  }
  const others = positional ? given.slice(1) : [...given];
  rest.forEach((a, i) => {
    if (others[i] === undefined) {
      if (!a.optional) cmd.error(`error: missing required argument '${a.name}'\n${usage}`, { code: 'commander.missingArgument', exitCode: 2 });
    } else if (a.choices && !a.choices.includes(others[i])) {
      cmd.error(`error: command-argument value '${others[i]}' is invalid for argument '${a.name}'. Allowed choices are ${a.choices.join(', ')}.`, { code: 'commander.invalidArgument', exitCode: 2 });
    }
  });
  return others;
}

function addCommand(parent: Command, def: CommandDef, name: string, env: Env, onCommand: (i: Invocation) => Promise<void>): void {
  const cmd = parent
    .command(name, { hidden: def.hidden })
    .description(def.summary)
    .showHelpAfterError(`(see: ${PROGRAM.name} ${def.name} --help)`);
  const orOption = orOptionArgument(def);
  for (const a of def.args ?? []) {
    // With an argument a flag may stand for, every argument is optional to commander, which
    // counts them by position; takeOrOptionArgument checks them once it is known which is which.
    const arg = new Argument(orOption ? `[${a.name}]` : argumentUsage(a), a.help);
    if (a.choices && !orOption) arg.choices(a.choices);
    cmd.addArgument(arg);
  }
  if (orOption) {
    cmd.usage(usageOf(def));
    const [withFlag, withArgument] = orOptionForms(def, orOption);
    cmd.addHelpText(
      'after',
      `\nName the ${orOption.name} with ${orOptionSetting(orOption).flag} or as the first argument; these are the same command:\n  ${withFlag}\n  ${withArgument}\nTwo different ${orOption.name}s named both ways are refused. No environment variable names it.`,
    );
  }
  const settings = settingsOf(def.name as CommandName);
  for (const s of settings) if (s.flag) cmd.addOption(option(s, def.name as CommandName));
  const envHelp = environmentHelp(settings);
  if (envHelp) cmd.addHelpText('after', envHelp);
  cmd.action(async () => {
    const command = def.name as CommandName;
    const args = orOption ? takeOrOptionArgument(cmd, def, orOption) : (cmd.processedArgs as string[]);
    requireOptions(cmd, settings);
    const config = resolveConfig(command, { value: (n) => cmd.getOptionValue(n), source: (n) => cmd.getOptionValueSource(n) }, env.env);
    await onCommand({ command, config, args } as Invocation);
  });
}

/**
 * The version `storelens --version` prints: package.json's (two folders up from src/settings and
 * from dist/settings alike), so a release bumps it in one place and the CLI cannot disagree.
 */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * The program; output goes to env's streams, and errors throw instead of exiting (subcommands
 * inherit both because they are created with `.command()`).
 */
export function buildProgram(env: Env, onCommand: (invocation: Invocation) => Promise<void>): Command {
  const program = new Command(PROGRAM.name)
    .description(PROGRAM.summary)
    .version(packageVersion(), '-V, --version', 'print the version of storelens and exit')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => env.stdout.write(s),
      writeErr: (s) => env.stderr.write(s),
      // Commander's refusals begin as storelens's own do (`storelens: STORELENS_LOG_LEVEL: …`),
      // so one bad value reads the same from a flag as from its variable.
      outputError: (s, write) => write(s.replace(/^error: /, `${PROGRAM.name}: `)),
    });
  for (const s of GLOBAL_SETTINGS) program.addOption(option(s, null));
  const groups = new Map<string, Command>();
  for (const def of COMMANDS as readonly CommandDef[]) {
    const [first, sub] = def.name.split(' ');
    if (!sub) {
      addCommand(program, def, first, env, onCommand);
      continue;
    }
    let group = groups.get(first);
    if (!group) {
      group = program.command(first).description(GROUPS[first as keyof typeof GROUPS]);
      groups.set(first, group);
    }
    addCommand(group, def, sub, env, onCommand);
  }
  return program;
}
