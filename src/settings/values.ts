/**
 * The kinds of value a setting takes: each parses the text of a flag or an environment variable,
 * or throws an InvalidArgumentError saying what is wrong (commander names the flag in front of it).
 * Numbers are strict decimal digits: `0x10`, `1e2`, `+5`, ` 5` and `5.0` are refused.
 */
import { statSync } from 'node:fs';
import { isMonth } from '../core/month.js';
import { targetUrl } from '../core/target-url.js';
import { serverKeyBytes } from '../core/server-key.js';
import { InvalidArgumentError } from 'commander';
import ipaddr from 'ipaddr.js';

export interface Value<T> {
  /** The placeholder in `--flag <arg>`; absent for a switch (`--json`), which takes no text. */
  readonly arg?: string;
  /** The allowed texts, when the value is one of a list (shown by --help). */
  readonly choices?: readonly string[];
  /** The flag may be given several times; the values are concatenated (T is then an array). */
  readonly repeatable?: boolean;
  parse(raw: string): T;
  /**
   * What makes a value unusable where the command is run (a folder that is a file), or
   * undefined: checked on the value the command gets, whether from its flag, its variable or
   * its default, before anything runs.
   */
  problem?(value: T): string | undefined;
}

const DIGITS = /^[0-9]+$/;

/** A non-negative integer written in decimal digits only, or null. */
function decimal(raw: string): number | null {
  if (!DIGITS.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

export function parsePort(raw: string): number {
  const n = decimal(raw);
  if (n === null || n > 65535) throw new InvalidArgumentError(`"${raw}" is not a port number (0-65535)`);
  return n;
}

export function parseMonth(raw: string): string {
  if (!isMonth(raw)) throw new InvalidArgumentError(`"${raw}" is not a month (YYYY-MM)`);
  return raw;
}

export function parsePositiveInt(raw: string): number {
  const n = decimal(raw);
  if (n === null || n === 0) throw new InvalidArgumentError(`"${raw}" is not a positive integer`);
  return n;
}

/** A positive integer up to `max` (a bound the help text names). */
export function positiveIntAtMost(max: number, what: string): Value<number> {
  return {
    arg: 'n',
    parse(raw) {
      const n = parsePositiveInt(raw);
      if (n > max) throw new InvalidArgumentError(`"${raw}" is more than ${max.toLocaleString('en-US')}, the most ${what}`);
      return n;
    },
  };
}

/** Seeds of a benchmark: `n` for seeds 1 to n, or `a-b` for seeds a to b (a ≤ b, both positive). */
export function parseSeedRange(raw: string): readonly number[] {
  const range = /^([0-9]+)-([0-9]+)$/.exec(raw);
  const [a, b] = range ? [decimal(range[1]), decimal(range[2])] : [1, decimal(raw)];
  if (a === null || b === null || a === 0 || b === 0 || a > b || b - a >= 1000) throw new InvalidArgumentError(`"${raw}" is not a number of seeds (n: seeds 1 to n) or a range of them (a-b, e.g. 11-20, at most 1,000)`);
  return Array.from({ length: b - a + 1 }, (_, k) => a + k);
}

/** A character a URL may hold as it is (RFC 3986: unreserved, sub-delims, `:` and `@`), or a percent-escape. */
const URL_CHAR = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})`;
/** Host (an IPv6 literal in brackets, or URL characters) and path; no query or fragment. */
const HTTP_URL = new RegExp(String.raw`^https?://(?:\[[0-9A-Fa-f:.]+\]|${URL_CHAR})+(?::[0-9]+)?(?:/${URL_CHAR}*)*$`);

/**
 * A URL naming a user (`https://user:password@host`) is refused without being shown: the error
 * goes to a terminal or a log, and the URLs storelens takes are written into public pages, invite
 * links or the database, where a password has no place.
 */
function refuseCredentials(raw: string): void {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(raw)?.[1];
  if (authority?.includes('@')) throw new HiddenValueError('holds a user name or password before its host (the value is not shown): give the URL without them');
}

/**
 * A refusal whose message must be shown without the value (commander writes an
 * InvalidArgumentError's value in front of it): the program names the flag alone.
 */
export class HiddenValueError extends Error {}

/**
 * An http(s) URL of URL characters only: it is written as it is into the pages, the feed and the
 * documents, so a space, a quote, `<` or a non-ASCII character (percent-encode them) would break
 * an attribute or the feed's XML.
 */
export function parseHttpUrl(raw: string): string {
  refuseCredentials(raw);
  if (!HTTP_URL.test(raw)) throw new InvalidArgumentError(`"${raw}" is not an http(s) URL without query or fragment (of URL characters only: percent-encode spaces, quotes, <, > and non-ASCII)`);
  return raw;
}

/** A target URL (core/target-url.ts) as kept: trimmed; a user name or password refused without being shown. */
export function parseTargetUrl(raw: string): string {
  refuseCredentials(raw.trim());
  const r = targetUrl(raw);
  // Commander's message shows the argument already: it is not repeated (it may hold a token).
  if ('refusal' in r) throw new InvalidArgumentError(`The URL ${r.refusal}.`);
  return r.url;
}

/**
 * The origin a server is reached at: `http(s)://host[:port]`, nothing after it but one `/`. What
 * is returned is the origin as written by the URL parser (lower-case, no default port, no `/`).
 */
export function parseHttpOrigin(raw: string): string {
  refuseCredentials(raw);
  const url = HTTP_URL.test(raw) ? URL.parse(raw) : null;
  if (!url || (url.pathname !== '/' && url.pathname !== '') || url.username || url.password) {
    throw new InvalidArgumentError(`"${raw}" is not an http(s) origin (scheme, host and port only, e.g. https://storelens.example.com)`);
  }
  return url.origin;
}

/**
 * Addresses and CIDR blocks, comma-separated (`10.0.0.5,192.168.0.0/16,::1`): each as written,
 * refused when ipaddr.js cannot read it as an IPv4 or IPv6 address or block.
 */
export function parseAddressBlocks(raw: string): readonly string[] {
  const items = raw.split(',').map((s) => s.trim());
  const bad = items.find((s) => !isAddressBlock(s));
  if (bad !== undefined) throw new InvalidArgumentError(`"${bad}" is not an IP address or CIDR block (e.g. 10.0.0.5 or 10.0.0.0/8; several comma-separated)`);
  return Object.freeze(items);
}

/** An IPv4 address in four decimal parts or an IPv6 address, with or without a prefix length in range. */
function isAddressBlock(s: string): boolean {
  const [address = '', bits, ...rest] = s.split('/');
  const ip = ipaddr.IPv4.isValidFourPartDecimal(address) ? 'ipv4' : ipaddr.IPv6.isValid(address) ? 'ipv6' : null;
  if (ip === null || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = decimal(bits);
  return n !== null && n <= (ip === 'ipv4' ? 32 : 128);
}

/** A non-negative integer in decimal digits (0 allowed). */
export function parseNonNegativeInt(raw: string): number {
  const n = decimal(raw);
  if (n === null) throw new InvalidArgumentError(`"${raw}" is not a whole number (0 or more, decimal digits)`);
  return n;
}

/** A non-negative decimal number: `1200`, `1200.50`; no sign, exponent or blanks. */
export function parseNonNegativeNumber(raw: string): number {
  if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(raw)) throw new InvalidArgumentError(`"${raw}" is not a number (0 or more, e.g. 1200 or 1200.50)`);
  return Number(raw);
}

/** The longest `--readiness-timeout`: a probe waiting longer than a minute for an answer is no probe. */
export const MAX_TIMEOUT_SECONDS = 60;

/** A duration in seconds, more than 0 and at most MAX_TIMEOUT_SECONDS, to the millisecond: `2`, `0.5`. */
export function parseSeconds(raw: string): number {
  const s = /^(0|[1-9][0-9]*)(\.[0-9]{1,3})?$/.test(raw) ? Number(raw) : NaN;
  if (!(s > 0 && s <= MAX_TIMEOUT_SECONDS)) throw new InvalidArgumentError(`"${raw}" is not a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS} (e.g. 2 or 0.5; to the millisecond)`);
  return s;
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1000, kib: 1024, m: 1024 ** 2, mb: 1000 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1000 ** 3, gib: 1024 ** 3, t: 1024 ** 4, tb: 1000 ** 4, tib: 1024 ** 4 };
/** The least memory a DuckDB instance is given: below it the simplest query fails rather than spills. */
export const MIN_MEMORY_BYTES = 128 * 1024 ** 2;

/** An amount of memory: `8GiB`, `512MiB`, `6GB`, `8G` (= GiB), or bytes; at least 128 MiB. */
export function parseMemorySize(raw: string): number {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]*)\s*$/i.exec(raw);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new InvalidArgumentError(`"${raw}" is not an amount of memory (e.g. 8GiB, 512MiB, 6GB)`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (bytes < MIN_MEMORY_BYTES) throw new InvalidArgumentError(`"${raw}" is less than 128MiB, too little for publish to work in`);
  return bytes;
}

export const seedRange: Value<readonly number[]> = { arg: 'seeds', parse: parseSeedRange };
export const memorySize: Value<number> = { arg: 'size', parse: parseMemorySize };
export const seconds: Value<number> = { arg: 'seconds', parse: parseSeconds };
export const port: Value<number> = { arg: 'port', parse: parsePort };
export const month: Value<string> = { arg: 'YYYY-MM', parse: parseMonth };
export const positiveInt: Value<number> = { arg: 'n', parse: parsePositiveInt };
export const httpUrl: Value<string> = { arg: 'url', parse: parseHttpUrl };
/** A URL storelens sends signed requests to, by the rule a webhook endpoint's URL follows in the API (core/target-url.ts). */
export const targetUrlValue: Value<string> = { arg: 'url', parse: parseTargetUrl };
export const httpOrigin: Value<string> = { arg: 'url', parse: parseHttpOrigin };
export const addressBlocks: Value<readonly string[]> = { arg: 'cidr', parse: parseAddressBlocks };
export const nonNegativeInt: Value<number> = { arg: 'n', parse: parseNonNegativeInt };
export const nonNegativeNumber: Value<number> = { arg: 'n', parse: parseNonNegativeNumber };
/**
 * Text with something in it: an empty (or blank) value is refused, as a flag given a variable
 * that is unset (`--db "$DB"`) would otherwise name nothing: SQLite opens an empty path as a
 * temporary database, so `workspaces create` would answer 0 and keep nothing.
 */
export function parseText(raw: string): string {
  if (raw.trim() === '') throw new InvalidArgumentError(`"${raw}" is empty: give a value`);
  return raw;
}

/**
 * A folder a command reads or writes: absent is for the command to say (publish creates its
 * output, serve waits for it), but a file there, or a file where a folder of its path should be,
 * can never be one; writing into it failed with the system's EEXIST or ENOTDIR (exit 1).
 */
function folderProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : 'is a file, not a folder';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'is not a folder: a file is in its path' : undefined;
  }
}

/** A folder (`--out`, `--runs`, `--input`): any text but an empty one, naming no file. */
export const folder: Value<string> = { arg: 'dir', parse: parseText, problem: folderProblem };

/** Text that may be given several times (`--category a --category b`): the list of them, in order. */
export const texts = (arg: string): Value<readonly string[]> => ({ arg, repeatable: true, parse: (raw) => [parseText(raw)] });
/** Any text but an empty one; `arg` names it in --help (`<dir>`, `<path>`, `<email>` …). */
export const text = (arg: string): Value<string> => ({ arg, parse: parseText });
/**
 * A member's email as members are kept (members add, the sign-in form): trimmed and lower-cased,
 * so `--as Ana@Acme.example` names the member added as ana@acme.example in every command.
 */
export const memberEmail: Value<string> = { arg: 'email', parse: (raw) => parseText(raw).trim().toLowerCase() };
/** A server key: 32 bytes as 64 hex digits or base64; refused without being shown (it is a secret). */
export const serverKey: Value<string> = {
  arg: 'key',
  parse: (raw) => {
    if (!serverKeyBytes(raw)) throw new HiddenValueError('is not 32 bytes written as 64 hex digits or base64 (the value is not shown)');
    return raw;
  },
};
/** A flag without a value: true when given, false otherwise. */
export const toggle: Value<boolean> = { parse: () => true };

/** A switch that an environment variable can also set: 1/true/on/yes or 0/false/off/no (anything else is refused). */
export const envSwitch: Value<boolean> = {
  parse: (raw) => {
    const v = String(raw ?? '1').trim().toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(v)) return true;
    if (['0', 'false', 'off', 'no'].includes(v)) return false;
    throw new InvalidArgumentError(`"${raw}" is not one of 1, true, on, yes, 0, false, off, no`);
  },
};

/** One of `choices`. */
export function oneOf<const T extends string>(arg: string, choices: readonly T[]): Value<T> {
  return {
    arg,
    choices,
    parse: (raw) => {
      if (!(choices as readonly string[]).includes(raw)) throw new InvalidArgumentError(`"${raw}" is not one of ${choices.join(', ')}`);
      return raw as T;
    },
  };
}

/** A comma-separated list of some of `choices`, at least one. */
export function someOf<const T extends string>(arg: string, choices: readonly T[]): Value<readonly T[]> {
  return {
    arg,
    parse: (raw) => {
      const items = raw.split(',').map((s) => s.trim());
      const bad = items.find((s) => !(choices as readonly string[]).includes(s));
      if (bad !== undefined) throw new InvalidArgumentError(`"${bad}" is not one of ${choices.join(', ')}`);
      return Object.freeze([...new Set(items)]) as readonly T[];
    },
  };
}
