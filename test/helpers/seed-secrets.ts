/**
 * The server secrets a template database is given once, so each fresh copy does not make them
 * again: the OAuth signing key is an RSA key pair (0.1–0.4 CPU-s to generate), which every api
 * app built on a fresh database made at its start (src/oauth/provider.ts). Made by the product's
 * own code path (the first start of a server), as on a database a server has started on once.
 * A test of a truly first start uses a database of its own (a new file, or freshDb's fromScratch).
 */
import type { Db } from '../../src/compose/database.js';
import { oauthServer } from '../../src/oauth/provider.js';

export async function seedServerSecrets(db: Db): Promise<void> {
  await oauthServer(db, () => new Date());
}
