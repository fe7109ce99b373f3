/** Secret tokens (sign-in links, sessions): 32 random bytes, stored only as their sha256. */
import { createHash, randomBytes } from 'node:crypto';

export const randomToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token: its sha256, hex. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
