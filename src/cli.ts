/**
 * The storelens command line. The only module that reads process.argv and process.env:
 * each command gets its typed options and an Env built here.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isCliError } from './errors.js';
import type { Env } from './env.js';
import { registerApiCommands } from './commands/register-api.js';


export function defaultEnv(): Env {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, now: () => new Date() };
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function month(value: string): string {
  if (!MONTH.test(value)) throw new InvalidArgumentError(`"${value}" is not a month (YYYY-MM)`);
  return value;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

export function buildProgram(env: Env): Command {
  const program = new Command('storelens')
    .description('Public e-commerce statistics (generate, publish, serve) and the workspace REST API (api).')
    .option('--debug', 'print stack traces for errors')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => env.stdout.write(s),
      writeErr: (s) => env.stderr.write(s),
    });

  program
    .command('generate')
    .description('write a deterministic synthetic monthly store panel (one file per month)')
    .requiredOption('--out <dir>', 'folder to write the panel into')
    .option('--stores <n>', 'number of distinct stores over the whole period', positiveInt, 2000)
    .requiredOption('--from <YYYY-MM>', 'first month', month)
    .requiredOption('--to <YYYY-MM>', 'last month', month)
    .option('--seed <s>', 'seed: the same seed gives byte-identical files', '1')
    .addOption(new Option('--format <format>', 'file format').choices(['csv', 'parquet', 'ndjson']).default('csv'))
    .option('--json', 'print a summary as JSON on stdout')
    .action(async (opts) => {
      const { runGenerate } = await import('./commands/generate.js');
      await runGenerate(opts, env);
    });

  program
    .command('publish')
    .description('aggregate a monthly panel and publish every statistics page (JSON, CSV, markdown, HTML, cards, RSS)')
    .requiredOption('--input <dir>', 'panel folder: YYYY-MM.csv | .parquet | .ndjson files')
    .option('--month <YYYY-MM>', 'publish (or correct) one month', month)
    .option('--all', 'publish every month in the panel')
    .option('--out <dir>', 'output folder', 'output')
    .option('--base-url <url>', 'public base URL used in canonical URLs, citations and cards', 'http://localhost:8080')
    .addOption(new Option('--cards <which>', 'PNG share cards to render').choices(['latest', 'all', 'none']).default('latest'))
    .option('--json', 'print a summary as JSON on stdout')
    .action(async (opts) => {
      const { runPublish } = await import('./commands/publish.js');
      await runPublish(opts, env);
    });

  program
    .command('serve')
    .description('serve the published statistics (and with --api, the workspace REST API on the same port)')
    .option('--out <dir>', 'output folder written by publish', 'output')
    .option('--port <port>', 'port', (v) => Number(v), 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--api', 'also mount the workspace REST API under /api/v1')
    .option('--db <path>', 'SQLite file for --api (ignored when DATABASE_URL is set)', 'storelens.db')
    .action(async (opts) => {
      const { runServe } = await import('./commands/serve.js');
      await runServe(opts, env);
    });

  program
    .command('start')
    .description('the demo: generate a panel if absent, publish it, serve statistics and API on one port, print a demo key')
    .option('--port <port>', 'port', (v) => Number(v), 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .action(async (opts) => {
      const { runStart } = await import('./commands/start.js');
      await runStart(opts, env);
    });

  registerApiCommands(program, env);
  return program;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[], env: Env = defaultEnv()): Promise<number> {
  const program = buildProgram(env);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? 0 : 2;
    }
    if (isCliError(e)) {
      env.stderr.write(`storelens: ${e.message}\n`);
      return e.exitCode;
    }
    const debug = program.opts().debug;
    env.stderr.write(`storelens: ${debug ? (e as Error).stack : (e as Error).message}\n`);
    if (!debug) env.stderr.write('(run again with --debug for details)\n');
    return 1;
  }
}
