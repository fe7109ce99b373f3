/**
 * `npm run bench`: every benchmark, each against its baseline measured in the same run, printed
 * as figures and ratios. Not a test: nothing here fails a build.
 * Environment: BENCH_STORES (default 1000000), BENCH_FROM/BENCH_TO (2025-10..2026-10),
 * BENCH_DATA (cache folder for generated panels, default bench-data/), BENCH_ONLY (comma list).
 */
import path from 'node:path';
import { benchApi } from './api.js';
import { benchCards } from './cards.js';
import { benchPublish } from './publish.js';
import { benchServeOnPanel } from './serve.js';

const env = process.env;
const only = new Set((env.BENCH_ONLY ?? 'publish,serve,cards,api').split(','));
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function main(): Promise<void> {
  const results: string[] = [];
  if (only.has('publish')) {
    const r = await benchPublish({
      stores: Number(env.BENCH_STORES ?? 1_000_000),
      from: env.BENCH_FROM ?? '2025-10',
      to: env.BENCH_TO ?? '2026-10',
      dataDir: path.resolve(env.BENCH_DATA ?? 'bench-data'),
      log,
    });
    results.push(
      `publish --all: ${fmt(r.publishSeconds)} s; floor (one DuckDB statement): ${fmt(r.floorSeconds)} s; ratio ${fmt(r.ratio)}× (goal ≤ 2×); ` +
        `disclosure audit: ${fmt(r.auditSeconds)} s, adding ${fmt((100 * r.auditSeconds) / Math.max(r.publishSeconds - r.auditSeconds, 1e-9), 1)}% to the rest of publish (goal ≤ 20%)` +
        (r.generateSeconds !== null ? `; generating the panel took ${fmt(r.generateSeconds, 1)} s` : ''),
    );
  }
  if (only.has('serve')) {
    const r = await benchServeOnPanel(log);
    results.push(
      `serve ${r.path} (${r.bytes} bytes): 200 ${fmt(r.serve.ok, 0)} req/s vs bare node:http ${fmt(r.bare.ok, 0)} (ratio ${fmt(r.ratio.ok)}); ` +
        `304 ${fmt(r.serve.notModified, 0)} vs ${fmt(r.bare.notModified, 0)} (ratio ${fmt(r.ratio.notModified)}) (goal ≥ 0.9)`,
    );
  }
  if (only.has('cards')) {
    const r = await benchCards(log);
    results.push(
      `cards: ${r.cards} cards rendered in ${fmt(r.coldSeconds)} s (${fmt(r.coldPerSecond, 1)} cards/s on every core); ` +
        `cached re-publish ${fmt(r.cachedSeconds)} s (${fmt(r.cachedPerSecond, 1)} cards/s, ${fmt(r.cachedPerSecond / r.coldPerSecond, 1)}× faster)`,
    );
  }
  if (only.has('api')) {
    const r = await benchApi(log);
    const op = (f: { rps: number; p99: number }) => `${fmt(f.rps, 0)} req/s, p99 ${fmt(f.p99, 1)} ms`;
    results.push(
      `api: hello-world ${op(r.hello)}; GET /accounts?limit=50 ${op(r.reads)}, ratio ${fmt(r.readRatio)} (goal ≥ 0.5); ` +
        `POST /outcomes ${op(r.writes)}, ratio ${fmt(r.writeRatio)} (goal ≥ 2,000 outcomes/s on SQLite)`,
    );
  }
  process.stdout.write(results.join('\n') + '\n');
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${(e as Error).stack}\n`);
  process.exitCode = 1;
});
