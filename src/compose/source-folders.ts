/**
 * What the composition finds in the folders of src/ (of dist/ once built) instead of listing it:
 * each module's migrations and its event declarations. A new module is found by its files.
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname } from 'node:path';

const SOURCE_ROOT = new URL('../', import.meta.url);

/** `.ts` when read from src/ (the tests), `.js` from dist/. */
export const OWN_EXTENSION = extname(new URL(import.meta.url).pathname);

/** Each top-level folder of src/ holding `path` (a file, or a directory ending in `/`), with its URL (in no order: each caller orders what it finds). */
export function foldersWith(path: string): { folder: string; url: URL }[] {
  return readdirSync(SOURCE_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ folder: e.name, url: new URL(`${e.name}/${path}`, SOURCE_ROOT) }))
    .filter(({ url }) => existsSync(url));
}
