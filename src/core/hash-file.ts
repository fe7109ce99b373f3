/** A file's content hash, read as a stream (panel months, publication blobs, a run's stores). */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** sha256 hex of the file's bytes. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
