/**
 * A URL storelens sends signed requests to, through every door that sets one: a webhook endpoint
 * over REST (a real socket) and through the assistant's tool (the MCP SDK client over HTTP), and
 * a workspace's outreach sender with `storelens outreach sender --url`. The same text is kept
 * alike, or refused by all three naming the field (REST's problem, the tool's error, the CLI's
 * flag with exit 2). The addresses are literals: the guard resolves no name here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSender } from '../../src/outreach/store.js';
import { adminCli } from '../helpers/cli.js';
import { call, freshIdem } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { type Assistant, SDKS, toolJson } from '../helpers/mcp.js';
import { startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';

const PUBLIC = 'https://93.184.216.34';

/** Given ⇒ kept as (every door), or refused (every door) with these words. */
const CASES: [what: string, given: string, outcome: { kept: string } | { refused: RegExp }][] = [
  ['a plain URL', `${PUBLIC}/in`, { kept: `${PUBLIC}/in` }],
  ['a query (a token)', `${PUBLIC}/in?token=abc&v=2`, { kept: `${PUBLIC}/in?token=abc&v=2` }],
  ['blanks and a line break around it', `  ${PUBLIC}/in\n`, { kept: `${PUBLIC}/in` }],
  ['a scheme in capitals', `HTTPS://93.184.216.34/In`, { kept: `HTTPS://93.184.216.34/In` }],
  ['a space inside', `${PUBLIC}/a b`, { refused: /must not contain spaces or control characters/ }],
  ['a tab inside', `${PUBLIC}/in\tx`, { refused: /must not contain spaces or control characters/ }],
  ['a fragment', `${PUBLIC}/in#part`, { refused: /must not have a fragment/ }],
  ['2,048 characters and more', `${PUBLIC}/${'a'.repeat(2048)}`, { refused: /must be at most 2048 characters/ }],
  ['no slashes after the scheme', 'https:93.184.216.34/in', { refused: /must be an https URL/ }],
  ['another scheme', 'ftp://93.184.216.34/in', { refused: /must be an https URL/ }],
];

for (const d of dialects) {
  describe.skipIf(d.skip)(`a target URL through every door (${d.label})`, () => {
    let h: WebhookHarness;
    let assistant: Assistant;
    let wsName: string;
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startWebhooks(d.name, { allowLocal: false });
      assistant = await SDKS[0]!.connect(h.base, h.key);
      wsName = (await h.db.kysely.selectFrom('workspaces').select('name').where('id', '=', h.wsId).executeTakeFirstOrThrow()).name;
    });
    afterAll(async () => {
      await assistant?.close();
      await h?.close();
    });

    /** What each door did with `url`: the URL it kept, or its words of refusal. */
    async function doors(url: string): Promise<Record<'rest' | 'mcp' | 'cli', { kept: string } | { said: string }>> {
      const rest = await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url } });
      const restSaid = rest.status === 201 ? { kept: rest.body.url as string } : { said: `${rest.status} ${JSON.stringify(rest.body.errors ?? rest.body.detail)}` };
      const tool = await assistant.callTool({ name: 'register_webhook', arguments: { url } });
      const mcpSaid = tool.isError ? { said: `error ${JSON.stringify(toolJson(tool).errors ?? toolJson(tool).detail)}` } : { kept: toolJson(tool).url as string };
      await h.db.write((trx) => trx.deleteFrom('outreach_senders').where('workspace_id', '=', h.wsId).execute());
      const cli = await run('outreach', 'sender', '--workspace', wsName, '--url', url, '--as', 'owner@example.com');
      const sender = await getSender(h.db.kysely, h.wsId);
      const cliSaid = cli.code === 0 ? { kept: sender!.url } : { said: `exit ${cli.code} ${cli.stderr}` };
      if (cli.code !== 0) expect(sender).toBeUndefined();
      return { rest: restSaid, mcp: mcpSaid, cli: cliSaid };
    }

    it.each(CASES)('%s: kept alike or refused alike', async (_what, given, outcome) => {
      const r = await doors(given);
      if ('kept' in outcome) {
        expect(r).toEqual({ rest: outcome, mcp: outcome, cli: outcome });
        return;
      }
      expect(r.rest).toEqual({ said: expect.stringMatching(/^400 \[\{"path":"url","message":/) });
      expect(r.mcp).toEqual({ said: expect.stringMatching(/^error \[\{"path":"url","message":/) });
      expect(r.cli).toEqual({ said: expect.stringMatching(/^exit 2 storelens: option '--url <url>' argument .* is invalid\. /s) });
      for (const said of Object.values(r)) expect((said as { said: string }).said).toMatch(outcome.refused);
      // The URL may hold a token: the CLI's refusal shows it once (commander's quote of the argument), never again.
      expect((r.cli as { said: string }).said.split(given.trim()).length - 1).toBe(1);
    });

    it('refuses a private address and http at every door, naming why', async () => {
      for (const [url, why] of [
        ['https://10.1.2.3/in', /10\.1\.2\.3 is a private address/],
        ['http://93.184.216.34/in', /only https URLs are allowed/],
      ] as const) {
        const r = await doors(url);
        expect(r.rest, url).toEqual({ said: expect.stringMatching(/^422 /) });
        expect(r.mcp, url).toEqual({ said: expect.stringMatching(/^error /) });
        expect(r.cli, url).toEqual({ said: expect.stringMatching(/^exit 2 /) });
        for (const said of Object.values(r)) expect((said as { said: string }).said).toMatch(why);
      }
    });
  });
}
