// Experiment (not committed): CPU profiles of an observed and a plain `storelens api` under the same load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '/work/main/dist/compose/database.js';
import { seedBenchWorkspace } from '/work/main/dist/bench/api.js';
import { runLoad } from '/work/main/dist/bench/load.js';
const dir = mkdtempSync('/work/exp/obs-');
const db = await openDatabase({ dbPath: `${dir}/seed.db` });
const { issue } = await seedBenchWorkspace(db, new Date());
const secs = Number(process.env.SECS ?? 8);
const variants = (process.env.VARIANTS ?? 'plain,observed').split(',');
const argsOf = { plain: ['--log-level', 'silent'], observed: ['--ops-port', '0', '--log-level', 'info', '--log-format', 'json'], logonly: ['--log-level', 'info', '--log-format', 'json'], metricsonly: ['--ops-port', '0', '--log-level', 'silent'] };
const turns = Number(process.env.TURNS ?? 3);
const allKeys = [];
for (let t = 0; t <= turns; t++) allKeys.push(await issue(Math.ceil((12000 * secs) / 120), 'read'));
const servers = {};
let port = 4700;
for (const v of variants) {
  await sql`vacuum into ${`${dir}/${v}.db`}`.execute(db.kysely);
  const p = port++;
  const env = { ...process.env };
  const prof = process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${dir}/prof-${v}`] : [];
  delete env.DATABASE_URL;
  const child = spawn('taskset', ['-c', '0', process.execPath, ...prof, 'bin/storelens.js', 'api', '--requests-only', '--port', String(p), '--host', '127.0.0.1', '--db', `${dir}/${v}.db`, '--runs', `${dir}/runs`, '--out', `${dir}/out`, ...argsOf[v]], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', () => {});
  servers[v] = { child, base: `http://127.0.0.1:${p}` };
}
for (const v of variants) for (;;) { try { if ((await fetch(`${servers[v].base}/-/readiness`)).status === 200) break; } catch {} await new Promise((r) => setTimeout(r, 100)); }
const cpu = (pid) => { const s = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) * 1e4; };
const totals = Object.fromEntries(variants.map((v) => [v, { req: 0, cpu: 0 }]));
for (let t = 0; t <= turns; t++) for (const v of variants) {
  const keys = allKeys[t];
  const c0 = cpu(servers[v].child.pid);
  const f = await runLoad({ url: `${servers[v].base}/api/v1/accounts?limit=50`, method: 'GET', connections: 32, seconds: secs, keys, uses: 120 }, '1');
  const used = cpu(servers[v].child.pid) - c0;
  totals[v].all = (totals[v].all ?? 0) + f.requests;
  if (t > 0) { totals[v].req += f.requests; totals[v].cpu += used; }
  console.log(t, v, Math.round(f.rps), 'req/s', (used / f.requests).toFixed(1), 'µs/req', 'non2xx', f.non2xx);
}
for (const v of variants) console.log('TOTAL', v, (totals[v].cpu / totals[v].req).toFixed(1), 'µs/req', 'all requests', totals[v].all);
for (const v of variants) { servers[v].child.kill('SIGTERM'); await new Promise((r) => servers[v].child.once('exit', r)); }
await db.close();
console.log('dir', dir);
