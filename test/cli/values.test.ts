/**
 * One validator per kind of value, strict decimal digits for numbers, and a bad value is bad
 * usage: exit 2 with one message naming the flag, before anything runs.
 */
import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main, parseCommandLine } from '../../src/cli.js';
import { parseAddressBlocks, parseHttpOrigin, parseHttpUrl, parseMemorySize, parseMonth, parsePort, parsePositiveInt, parseSeconds, parseSeedRange } from '../../src/settings/values.js';
import { SETTINGS, type SettingDef } from '../../src/settings/table.js';
import { capturedEnv } from '../helpers/cli.js';

const NOT_DECIMAL = ['0x10', '1e2', '+5', '-5', ' 5', '5 ', '5.0', '5.', '', '٥', 'Infinity', 'NaN', '0b1', '1_000'];

async function run(...args: string[]) {
  const c = capturedEnv();
  const code = await main(['node', 'storelens', ...args], c.env);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

describe('--port', () => {
  it('takes every integer from 0 to 65535 written in decimal digits', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 65535 }), (n) => parsePort(String(n)) === n));
    expect(parsePort('08080')).toBe(8080);
  });

  it.each([...NOT_DECIMAL, '65536', '99999999999999999999'])('refuses %j', (raw) => {
    expect(() => parsePort(raw)).toThrow(/is not a port number \(0-65535\)/);
  });

  it('refuses any text that is not decimal digits', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^[0-9]+$/.test(s)),
        (s) => {
          expect(() => parsePort(s)).toThrow(/is not a port number/);
        },
      ),
    );
  });

  it.each([
    ['serve', '0x10'],
    ['start', '65536'],
    ['api', '1e2'],
    ['api', '+5'],
  ])('%s --port %s exits 2 naming the flag, and runs nothing', async (command, value) => {
    const r = await run(command, '--port', value);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`option '--port <port>' argument '${value}' is invalid. "${value}" is not a port number (0-65535)`);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('is not a port number'), `(see: storelens ${command} --help)`]);
    expect(r.stdout).toBe('');
  });
});

describe('positive integers', () => {
  it('takes 1 and up in decimal digits', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => parsePositiveInt(String(n)) === n));
  });

  it.each([...NOT_DECIMAL, '0', '00', '9007199254740993'])('refuses %j', (raw) => {
    expect(() => parsePositiveInt(raw)).toThrow(/is not a positive integer/);
  });

  it.each(['0x10', '1e2', '+5'])('generate --stores %s exits 2 naming the flag', async (value) => {
    const r = await run('generate', '--out', 'never-written', '--from', '2026-01', '--to', '2026-02', '--stores', value);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`option '--stores <n>' argument '${value}' is invalid. "${value}" is not a positive integer`);
  });
});

describe('months', () => {
  it('takes YYYY-MM with a month from 01 to 12', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
        return parseMonth(text) === text;
      }),
    );
  });

  it.each(['2026-13', '2026-00', '2026-1', '26-01', '2026-01-01', '2026/01', ' 2026-01', 'October', ''])('refuses %j', (raw) => {
    expect(() => parseMonth(raw)).toThrow(/is not a month \(YYYY-MM\)/);
  });
});

describe('base URLs', () => {
  it.each(['https://stats.example.com', 'http://localhost:8080', 'https://example.com/stats/', 'http://[::1]:8080', 'https://example.com/open%20data/'])('takes %s', (url) => {
    expect(parseHttpUrl(url)).toBe(url);
  });

  it.each(['http://x.test/"><script>alert(1)</script>', 'https://example.com/open data', 'https://example.com/caf\u00e9', 'http://x.test\\stats', 'https://x.test/%zz', 'http://'])(
    'refuses %j, which a page or the feed could not hold as it is',
    (url) => {
      expect(() => parseHttpUrl(url)).toThrow(/is not an http\(s\) URL without query or fragment \(of URL characters only/);
    },
  );

  it.each(['ftp://stats.example.com', 'stats.example.com', 'https://stats.example.com/?utm=1', 'https://stats.example.com/#top'])('refuses %s', (url) => {
    expect(() => parseHttpUrl(url)).toThrow(/is not an http\(s\) URL without query or fragment/);
  });
});

describe('--public-url', () => {
  it.each([
    ['https://storelens.example.com', 'https://storelens.example.com'],
    ['https://storelens.example.com/', 'https://storelens.example.com'],
    ['https://Storelens.Example.com:443', 'https://storelens.example.com'],
    ['http://127.0.0.1:8081', 'http://127.0.0.1:8081'],
  ])('takes %s as the origin %s', (raw, origin) => {
    expect(parseHttpOrigin(raw)).toBe(origin);
  });

  it.each(['https://storelens.example.com/api', 'https://storelens.example.com/?a=1', 'storelens.example.com', 'ftp://storelens.example.com'])('refuses %s, which is not an origin alone', (raw) => {
    expect(() => parseHttpOrigin(raw)).toThrow(/is not an http\(s\) origin/);
  });
});

describe('a URL holding a user name or password', () => {
  const SECRET = 's3cret-pw';
  it.each([
    ['--base-url', ['publish', '--input', 'nowhere', '--all']],
    ['--base-url', ['members', 'invite', '--workspace', 'w', '--email', 'a@example.com']],
    ['--url', ['outreach', 'sender', 'w', '--as', 'o@example.com']],
    ['--public-url', ['api']],
  ])('is refused by %s of %j (exit 2), the value never shown', async (flag, args) => {
    for (const url of [`https://admin:${SECRET}@stats.example.com`, `https://${SECRET}@stats.example.com/`, `HTTP://admin:${SECRET}@[::1]:8080/x`]) {
      const r = await run(...args, flag, url);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`storelens: ${flag}: holds a user name or password before its host (the value is not shown): give the URL without them\n`);
      expect(r.stdout).toBe('');
    }
  });

  it('is refused in STORELENS_PUBLIC_URL, the value never shown', async () => {
    const c = capturedEnv(undefined, { STORELENS_PUBLIC_URL: `https://admin:${SECRET}@storelens.example.com` });
    const code = await main(['node', 'storelens', 'api', '--db', 'never-opened.db'], c.env);
    expect(code).toBe(2);
    expect(c.stderr()).toBe('storelens: STORELENS_PUBLIC_URL: holds a user name or password before its host (the value is not shown): give the URL without them\n');
  });

  it('is no URL with an @ after its host', () => {
    expect(parseHttpUrl('https://example.com/team@stats/')).toBe('https://example.com/team@stats/');
  });
});

describe('--memory-limit', () => {
  it.each([
    ['6GiB', 6 * 1024 ** 3],
    ['6G', 6 * 1024 ** 3],
    ['6GB', 6e9],
    ['512MiB', 512 * 1024 ** 2],
    ['1.5gib', 1.5 * 1024 ** 3],
    ['200000000', 200_000_000],
  ])('reads %j as %d bytes', (raw, bytes) => {
    expect(parseMemorySize(raw)).toBe(bytes);
  });

  it.each(['', 'lots', '6 parsecs', '-1GiB', '1e9', '100MiB'])('refuses %j', (raw) => {
    expect(() => parseMemorySize(raw)).toThrow(/is not an amount of memory|less than 128MiB/);
  });

  it('is bad usage (exit 2) on publish, named', async () => {
    const r = await run('publish', '--input', 'nowhere', '--all', '--memory-limit', 'lots');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--memory-limit.*"lots" is not an amount of memory/);
  });
});

describe('--readiness-timeout', () => {
  it.each([
    ['2', 2],
    ['0.5', 0.5],
    ['0.001', 0.001],
    ['60', 60],
  ])('reads %j as %d seconds', (raw, seconds) => {
    expect(parseSeconds(raw)).toBe(seconds);
  });

  it.each(['0', '0.0001', '61', '-1', '1e3', '1s', '.5', '', 'soon'])('refuses %j', (raw) => {
    expect(() => parseSeconds(raw)).toThrow(/is not a number of seconds above 0 and at most 60/);
  });

  it('is bad usage (exit 2) on api, and in STORELENS_READINESS_TIMEOUT, named', async () => {
    const r = await run('api', '--readiness-timeout', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--readiness-timeout.*"0" is not a number of seconds/);
    const c = capturedEnv(undefined, { STORELENS_READINESS_TIMEOUT: '2 s' });
    expect(await main(['node', 'storelens', 'worker'], c.env)).toBe(2);
    expect(c.stderr()).toMatch(/STORELENS_READINESS_TIMEOUT.*"2 s" is not a number of seconds/);
  });
});

describe('--learning-seeds', () => {
  it.each([
    ['10', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    ['1', [1]],
    ['11-20', [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]],
    ['7-7', [7]],
  ])('reads %j as those seeds', (raw, seeds) => {
    expect(parseSeedRange(raw)).toEqual(seeds);
  });

  it.each([...NOT_DECIMAL, '0', '0-3', '5-3', '3-', '-3', '1-2-3', '1-5000'])('refuses %j', (raw) => {
    expect(() => parseSeedRange(raw)).toThrow(/is not a number of seeds/);
  });

  it('is bad usage (exit 2) on bench, named', async () => {
    const r = await run('bench', '--only', 'learning', '--learning-seeds', '20-11');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--learning-seeds.*"20-11" is not a number of seeds/);
  });
});

describe('--trusted-proxy', () => {
  it('takes addresses and CIDR blocks, comma-separated', () => {
    expect(parseAddressBlocks('10.0.0.5, 192.168.0.0/16,::1,fd00::/8')).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8']);
  });

  it.each(['', 'proxy.example.com', '10.0.0.0/33', '10.0.0.5,', '10.0.0', 'any'])('refuses %j', (raw) => {
    expect(() => parseAddressBlocks(raw)).toThrow(/is not an IP address or CIDR block/);
  });

  it('is refused on the command line with exit code 2 when it names a host instead of an address', async () => {
    const r = await run('api', '--trusted-proxy', 'proxy.example.com');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--trusted-proxy.*"proxy.example.com" is not an IP address or CIDR block/);
  });
});

describe('an empty value', () => {
  const withValue = (SETTINGS as readonly SettingDef[]).filter((s) => s.flag !== undefined && s.value.arg !== undefined);

  it.each(withValue.map((s) => [s.flag, s.commands[0], s] as const))('is refused by %s (%s)', (_flag, _command, s) => {
    for (const raw of ['', ' ', '\t']) expect(() => s.value.parse(raw)).toThrow();
  });

  it('given to --db, exits 2 naming the flag: SQLite would open a temporary database, and workspaces create answered 0 keeping nothing', async () => {
    const r = await run('workspaces', 'create', 'acme', '--db', '', '--json');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`storelens: option '--db <path>' argument '' is invalid. "" is empty: give a value\n(see: storelens workspaces create --help)\n`);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['generate', '--out', '', '--from', '2026-01', '--to', '2026-02'],
    ['publish', '--input', '', '--all'],
    ['members', 'add', '--workspace', ' ', '--email', 'a@example.com', '--role', 'owner'],
    ['workspaces', 'profile', 'w', '--as', 'o@example.com', '--category', ''],
  ])('is bad usage (exit 2) before anything runs: %s %s %s %j', async (...args) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^storelens: option '--[a-z-]+ <[a-z|]+>' argument '\s*' is invalid\. "\s*" is empty: give a value\n\(see: storelens [a-z -]+ --help\)\n$/);
    expect(r.stdout).toBe('');
  });
});

describe('a flag given twice', () => {
  // Where a run would write, were the flag taken (the last one used to win silently).
  const dir = mkdtempSync(join(tmpdir(), 'storelens-twice-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['--stores', ['generate', '--out', join(dir, 'panel'), '--from', '2026-01', '--to', '2026-02', '--stores', '5', '--stores', '6']],
    ['--format', ['generate', '--out', join(dir, 'panel'), '--from', '2026-01', '--to', '2026-02', '--format', 'csv', '--format', 'ndjson']],
    ['--db', ['workspaces', 'create', 'acme', '--db', join(dir, 'a.db'), '--db', join(dir, 'b.db'), '--json']],
    ['--idempotency-key', ['wallet', 'credit', 'w', '5', '--as', 'o@example.com', '--reason', 'r', '--idempotency-key', 'k1', '--idempotency-key', 'k2', '--db', join(dir, 'c.db')]],
  ])('%s: exits 2 naming it, before anything runs (the last one silently won)', async (flag, args) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`storelens: ${flag}: given more than once; give it once\n`);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is still a list for a repeatable flag', async () => {
    const c = capturedEnv();
    const parsed = await parseCommandLine(['node', 'storelens', 'oauth', 'register', 'app', '--redirect-uri', 'https://a.example/cb', '--redirect-uri', 'https://b.example/cb'], c.env);
    expect(parsed?.config).toMatchObject({ redirectUri: ['https://a.example/cb', 'https://b.example/cb'] });
  });
});
