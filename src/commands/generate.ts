import type { Env } from '../cli.js';
import { CliError } from '../errors.js';

export async function runGenerate(_opts: Record<string, unknown>, _env: Env): Promise<void> {
  throw new CliError('generate: not implemented yet', 1);
}
