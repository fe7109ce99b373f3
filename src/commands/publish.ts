import type { Env } from '../cli.js';
import { CliError } from '../errors.js';

export async function runPublish(_opts: Record<string, unknown>, _env: Env): Promise<void> {
  throw new CliError('publish: not implemented yet', 1);
}
