/** `serve` with the workspace API mounted under /api/v1 (as `serve --api` runs it) over a sample publication, on a free port. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workspaceApi as apiPlugin } from '../../src/compose/workspace-app.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { freshDb, type TestDb } from './db.js';
import { samplePublicationFiles, writePublication, type WrittenRelease } from './publication.js';

export interface ServeWithApi {
  out: string;
  t: TestDb;
  server: RunningServer;
  release: WrittenRelease;
  close(): Promise<void>;
}

export async function startServeWithApi(runId: string, months: string[]): Promise<ServeWithApi> {
  const out = await mkdtemp(path.join(tmpdir(), `storelens-${runId}-`));
  const release = await writePublication(out, samplePublicationFiles({ runId, months }));
  const t = await freshDb('SQLite');
  let server: RunningServer | undefined = undefined;
  server = await startServer({
    out,
    port: 0,
    host: '127.0.0.1',
    live: { pollMs: 0 },
    plugins: [{ plugin: apiPlugin, options: { prefix: '/api/v1', db: t.db, mcp: { publication: () => server?.serve.live.current ?? null } } }],
  });
  return {
    out,
    t,
    server,
    release,
    async close() {
      await server.close();
      await t.cleanup();
      await rm(out, { recursive: true, force: true });
    },
  };
}
