/** `storelens bench` (what `npm run bench` runs): every benchmark's figures on stdout, progress on stderr. */
import { runBenchmarks } from '../bench/index.js';
import type { Env } from '../core/env.js';
import type { Config } from '../settings/config.js';

export async function runBench(config: Config<'bench'>, env: Env): Promise<void> {
  const lines = await runBenchmarks(config, (line) => env.stderr.write(`bench: ${line}\n`), env.env);
  env.stdout.write(lines.join('\n') + '\n');
}
