/**
 * Card workers run the built JS (Node 20 cannot run .ts workers). `npm test` builds first
 * (`pretest`); when a test file runs alone (`npx vitest run test/render`) this builds dist/
 * if any renderer source is newer than its built file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function staleRenderFiles(): string[] {
  const src = join(ROOT, 'src/render');
  return readdirSync(src)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .filter((f) => {
      const built = join(ROOT, 'dist/render', f.replace(/\.ts$/, '.js'));
      return !existsSync(built) || statSync(built).mtimeMs < statSync(join(src, f)).mtimeMs;
    });
}

export function ensureRenderBuilt(): void {
  if (staleRenderFiles().length === 0) return;
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch {
    // Type errors elsewhere in the tree still emit JS (noEmitOnError is off); check below.
  }
  const stale = staleRenderFiles();
  if (stale.length > 0) throw new Error(`dist/render is stale after building: ${stale.join(', ')}`);
}
