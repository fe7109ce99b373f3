/**
 * The Config a command receives: one frozen object holding every setting the command takes,
 * each from its flag, else its environment variable, else its default. Its type is read from
 * the table, so a command declares what it takes as `Config<'serve'>` (or a Pick of it).
 */
import { CliError } from '../core/errors.js';
import { type CommandName, type Setting, type SettingDef, defaultFor, settingsOf } from './table.js';
import type { Value } from './values.js';

type RowsOf<C extends CommandName, R = Setting> = R extends { readonly commands: readonly (infer K)[] } ? (C extends K ? R : never) : never;
type ValueOf<R> = R extends { readonly value: Value<infer T> } ? T : never;
/** Always present: given a default, required, or a switch (false when absent). */
type Present<R> = R extends { readonly default: unknown } | { readonly required: true } | { readonly value: Value<boolean> } ? true : false;

export type Config<C extends CommandName> = Readonly<
  { [R in RowsOf<C> as Present<R> extends true ? R['name'] : never]: ValueOf<R> } & {
    [R in RowsOf<C> as Present<R> extends true ? never : R['name']]?: ValueOf<R>;
  }
>;

/** Where each value came from, as commander reports it (`cli`, `default`, or absent). */
export interface FlagValues {
  value(name: string): unknown;
  source(name: string): string | undefined;
}

/**
 * Builds the frozen Config of `command`: a flag given on the command line wins, then the
 * setting's environment variable, then its default. A bad environment value is bad usage (exit 2).
 */
export function resolveConfig<C extends CommandName>(command: C, flags: FlagValues, vars: Readonly<Record<string, string | undefined>>): Config<C> {
  const config: Record<string, unknown> = {};
  for (const s of settingsOf(command)) {
    const value = resolveOne(s, command, flags, vars);
    const problem = value === undefined ? undefined : s.value.problem?.(value);
    if (problem) throw new CliError(`${origin(s, flags, vars, String(value))}: ${problem}`, 2);
    config[s.name] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return Object.freeze(config) as Config<C>;
}

/** A setting's value as the operator gave it: after its flag, its variable, or as the default of the flag. */
function origin(s: SettingDef, flags: FlagValues, vars: Readonly<Record<string, string | undefined>>, value: string): string {
  if (s.flag && flags.source(s.name) === 'cli') return `${s.flag} ${value}`;
  if (s.env && vars[s.env]) return `${s.env}=${value}`;
  return `${s.flag ?? s.env} ${value} (the default)`;
}

function resolveOne(s: SettingDef, command: CommandName, flags: FlagValues, vars: Readonly<Record<string, string | undefined>>): unknown {
  if (s.flag && flags.source(s.name) === 'cli') return flags.value(s.name);
  const raw = s.env ? vars[s.env] : undefined;
  if (s.env && raw !== undefined && raw !== '') {
    try {
      return s.value.parse(raw);
    } catch (e) {
      throw new CliError(`${s.env}: ${(e as Error).message}`, 2);
    }
  }
  const fallback = defaultFor(s, command);
  if (fallback !== undefined) return fallback;
  return s.value.arg === undefined ? false : undefined;
}
