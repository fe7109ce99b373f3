/**
 * The webhook benchmark's receiver: an entry module that `benchWebhooks` forks, so receiving
 * never shares the workers' event loop. An http server on loopback that answers 204 and notes
 * each message's arrival time (epoch ms) by its `webhook-id`; over IPC it sends its port, and
 * on request the arrivals.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const arrivals: [string, number, string][] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const token = /"token":"([^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
    arrivals.push([String(req.headers['webhook-id']), at, token]);
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (m: { type: string }) => {
  if (m.type === 'arrivals') process.send!({ arrivals: arrivals.splice(0) });
  if (m.type === 'stop') server.close(() => process.exit(0));
});
