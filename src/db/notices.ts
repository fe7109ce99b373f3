/**
 * Notices other connections send on a PostgreSQL channel (LISTEN/NOTIFY), on a connection of
 * their own beside the pool. A notice arrives after the transaction that sent it committed,
 * within milliseconds. `live` says whether this process is hearing them now: false until the
 * first LISTEN answered, and from a lost connection until it is back (tried again every second),
 * so a user of the notices knows when it may have missed one; `reset` is told on each change.
 */
export interface Notices {
  readonly live: boolean;
  close(): Promise<void>;
}

export interface NoticeHandlers {
  notice(payload: string): void;
  /** The connection was lost or (re)started: notices may have been missed until now. */
  reset(): void;
}

const RETRY_MS = 1000;

export async function listenForNotices(databaseUrl: string, channel: string, on: NoticeHandlers): Promise<Notices> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const { default: pg } = await import('pg');
  let live = false;
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = () => {
    if (live) on.reset();
    live = false;
    client?.removeAllListeners();
    client?.on('error', () => {});
    client?.end().catch(() => undefined);
    client = undefined;
    if (!closed && !retry) {
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, RETRY_MS);
      retry.unref();
    }
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (n) => {
      if (n.channel === channel) on.notice(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
      if (closed || client !== c) return void c.end().catch(() => undefined);
      live = true;
      on.reset();
    } catch {
      if (client === c) lost();
    }
  };
  await connect();
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      live = false;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => undefined);
      }
    },
  };
}
