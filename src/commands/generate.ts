import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { progress } from './progress.js';
import type { Config } from '../settings/config.js';

export async function runGenerate(flags: Config<'generate'>, env: Env): Promise<void> {
  if (flags.from > flags.to) throw new CliError(`--from ${flags.from} is after --to ${flags.to}`);
  const duck = await openDuck();
  const bar = progress(env, 'generate');
  try {
    const files = await generatePanel(duck, flags, (m) => bar.update(`month ${m}`));
    bar.done(`wrote ${files.length} files to ${flags.out}`);
    if (flags.json) env.stdout.write(JSON.stringify({ out: flags.out, stores: flags.stores, files }) + '\n');
  } finally {
    duck.close();
  }
}
