import type { Env } from '../env.js';
import { CliError } from '../errors.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel, type GenerateOptions } from '../panel/generate.js';
import { progress } from '../progress.js';

type GenerateFlags = GenerateOptions & { json?: boolean };

export async function runGenerate(flags: GenerateFlags, env: Env): Promise<void> {
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
