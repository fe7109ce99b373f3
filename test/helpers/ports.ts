/** A port free on 127.0.0.1 now, for a server the test starts that cannot listen on port 0 and tell its port (PostgreSQL, Prometheus). */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}
