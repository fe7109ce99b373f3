/**
 * Only the CLI entry reads the process's environment and arguments; every other module gets
 * what it needs passed in (an Env, a Config, a plan over IPC).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const ALLOWED = new Set(['cli.ts']);

/** `process.env`, `process['argv']`, `const { env } = process` … outside comments. */
const PATTERNS = [/\bprocess\s*(\?\.|\.)\s*(env|argv)\b/, /\bprocess\s*\[\s*['"`](env|argv)['"`]\s*\]/, /\{[^}]*\b(env|argv)\b[^}]*\}\s*=\s*(globalThis\.)?process\b/];

const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const readsProcess = (source: string) => PATTERNS.some((p) => p.test(withoutComments(source)));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => path.relative(SRC, path.join(e.parentPath, e.name)));
}

describe('process.env and process.argv', () => {
  it('recognises the ways a module could read them, and not a mention in a comment', () => {
    for (const code of ['const x = process.env.CI;', "process['argv'].slice(2)", 'const { env } = process;', 'process?.argv', 'const { argv: a } = globalThis.process;']) {
      expect(readsProcess(code), code).toBe(true);
    }
    for (const code of ['// reads process.env', '/** process.argv */', 'const env = options.env;', 'process.send(x)']) {
      expect(readsProcess(code), code).toBe(false);
    }
  });

  it('are read by no module in src/ but the CLI entry', async () => {
    const files = await sources(SRC);
    expect(files).toContain('cli.ts');
    const readers: string[] = [];
    for (const file of files) if (readsProcess(await readFile(path.join(SRC, file), 'utf8'))) readers.push(file);
    expect(readers.filter((f) => !ALLOWED.has(f))).toEqual([]);
    expect(readers).toContain('cli.ts');
  });
});
