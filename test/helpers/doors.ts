/**
 * The setup of the tests that send the same value through every door (test/doors/): a real API
 * server on a fresh database (REST over a socket), a workspace with a key of every scope, the
 * assistant's tools through the MCP SDK client over HTTP, the admin CLI run in-process against
 * the same database, and temp folders for the files a door reads. Call it in a describe block:
 * its fields are set in beforeAll and released in afterAll.
 */
import { afterAll, beforeAll } from 'vitest';
import { SCOPES } from '../../src/api/scopes.js';
import { type AdminResult, adminCli } from './cli.js';
import { apiKey, type Harness, startApi, workspace } from './api.js';
import type { DialectName } from './db.js';
import { type Assistant, SDKS } from './mcp.js';
import { tempDirs } from './tmp.js';

export interface Doors {
  h: Harness;
  /** a key of every scope, of workspace `wsId` */
  key: string;
  wsId: string;
  assistant: Assistant;
  /** `storelens …args` against the server's database */
  run(...args: string[]): Promise<AdminResult>;
  dirs: ReturnType<typeof tempDirs>;
}

export function useDoors(dialect: DialectName): Doors {
  const dirs = tempDirs('storelens-doors-');
  const doors = { dirs } as Doors;
  doors.run = adminCli(() => doors.h.t);
  beforeAll(async () => {
    doors.h = await startApi(dialect, { rateLimits: { read: 10_000, write: 10_000, report: 10 } });
    doors.wsId = (await workspace(doors.h.db)).id;
    doors.key = await apiKey(doors.h.db, doors.wsId, SCOPES);
    doors.assistant = await SDKS[0]!.connect(doors.h.base, doors.key);
  });
  afterAll(async () => {
    await doors.assistant?.close();
    await doors.h?.close();
    await dirs.removeAll();
  });
  return doors;
}
