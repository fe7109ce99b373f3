/**
 * Where a worker thread's entry file is. Node 20 cannot run .ts workers, so a worker always
 * loads a built file: from dist/ it sits beside the module that starts it; when that module runs
 * as TypeScript source (vitest), it is the matching file under dist/ (build first: `npm test`
 * does, through `pretest`).
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `file` (e.g. `./card-worker.js`) beside the module at moduleUrl, as built. */
export function builtWorkerPath(moduleUrl: string, file: string): string {
  const sibling = fileURLToPath(new URL(file, moduleUrl));
  if (!fileURLToPath(moduleUrl).endsWith('.ts')) return sibling;
  const at = sibling.lastIndexOf(`${sep}src${sep}`);
  return `${sibling.slice(0, at)}${sep}dist${sep}${sibling.slice(at + 5)}`;
}
