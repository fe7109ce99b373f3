import type { Env } from '../cli.js';
import { CliError } from '../errors.js';

export async function runServe(_opts: Record<string, unknown>, _env: Env): Promise<void> {
  throw new CliError('serve: not implemented yet', 1);
}
