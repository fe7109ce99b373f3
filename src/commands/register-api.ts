/** Registers the api and administration commands (owned by the api work: src/api, src/db). */
import type { Command } from 'commander';
import type { Env } from '../cli.js';

export function registerApiCommands(_program: Command, _env: Env): void {
  // api, workspaces, members, keys, accounts: see issue 4
}
