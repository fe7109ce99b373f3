/** Member passwords, hashed with argon2id (@node-rs/argon2; its defaults follow OWASP's guidance). */
import { Algorithm, hash, verify } from '@node-rs/argon2';

export const PASSWORD_MIN = 12;

export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: Algorithm.Argon2id });

export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  // Without a stored hash, still spend the time of one check so timing does not tell which emails exist.
  if (stored === undefined) {
    await verify(DUMMY, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

const DUMMY = '$argon2id$v=19$m=19456,t=2,p=1$c3RvcmVsZW5zLWR1bW15$Qq9Zq2b2m0dG1S7h3QeZ8Zb1xjH2mX3aQm3r2vZ9m4E';
