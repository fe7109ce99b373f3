import type { Env } from '../cli.js';
import { CliError } from '../errors.js';

export async function runStart(_opts: Record<string, unknown>, _env: Env): Promise<void> {
  throw new CliError('start: not implemented yet', 1);
}
