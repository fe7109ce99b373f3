import type { Env } from '../core/env.js';
import { GENERATE_LIMITS } from '../core/defaults.js';
import { CliError } from '../core/errors.js';
import { monthIndex } from '../core/panel-contract.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { makeFolder } from '../publish/lock.js';
import { progress } from './progress.js';
import { stoppable } from './until-signal.js';
import { rm } from 'node:fs/promises';
import type { Config } from '../settings/config.js';

const n = (x: number) => x.toLocaleString('en-US');

export async function runGenerate(flags: Config<'generate'>, env: Env): Promise<void> {
  if (flags.from > flags.to) throw new CliError(`--from ${flags.from} is after --to ${flags.to}`);
  // --stores is bounded by its value (settings/table.ts); the months and the whole panel here.
  const months = monthIndex(flags.to) - monthIndex(flags.from) + 1;
  if (months > GENERATE_LIMITS.months) {
    throw new CliError(`--from ${flags.from} to --to ${flags.to} is ${n(months)} months: generate makes at most ${GENERATE_LIMITS.months} (${GENERATE_LIMITS.months / 12} years)`);
  }
  if (flags.stores * months > GENERATE_LIMITS.storeMonths) {
    throw new CliError(`--stores ${n(flags.stores)} over ${months} months (--from ${flags.from} to --to ${flags.to}) is ${n(flags.stores * months)} store-months: generate makes at most ${n(GENERATE_LIMITS.storeMonths)}; give fewer stores or months`);
  }
  const created = await makeFolder(flags.out, 'panel folder');
  const duck = await openDuck();
  const bar = progress(env, 'generate');
  try {
    // Ctrl-C or SIGTERM ends generate as a failed run ends: the files it was writing are taken
    // back (panel/generate.ts), so no panel short of its later months is left to publish.
    const files = await stoppable(
      (abort) => {
        abort.addEventListener('abort', () => duck.interrupt(), { once: true });
        return generatePanel(duck, flags, (m) => bar.update(`month ${m}`));
      },
      (signal) => `generate stopped by ${signal}: ${flags.out} is left as it was`,
    );
    bar.done(`wrote ${files.length} files to ${flags.out}`);
    if (flags.json) env.stdout.write(JSON.stringify({ out: flags.out, stores: flags.stores, files }) + '\n');
  } catch (e) {
    if (created) await rm(created, { recursive: true, force: true });
    throw e;
  } finally {
    duck.close();
  }
}
