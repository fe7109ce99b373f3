/**
 * Where the live publication is. A publication is a folder `output/.releases/<id>/` holding
 * `manifest.json` and every artifact; `output/.releases/current` is a symlink to the live one,
 * switched with a single rename. A plain folder with `manifest.json` at its top also works
 * (tests, hand-made trees).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export const RELEASES_DIR = '.releases';
export const CURRENT_LINK = 'current';

/** Absolute path of the live publication's folder, or null when nothing is published. */
export async function resolveCurrentRelease(outDir: string): Promise<string | null> {
  try {
    return await realpath(path.join(outDir, RELEASES_DIR, CURRENT_LINK));
  } catch {
    try {
      await stat(path.join(outDir, 'manifest.json'));
      return path.resolve(outDir);
    } catch {
      return null;
    }
  }
}
