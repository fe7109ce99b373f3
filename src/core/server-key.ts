/** The server key's written form (STORELENS_SECRET_KEY): 32 bytes as 64 hex digits or base64. */

/** The key's 32 bytes, or null when `text` is not 32 bytes written as 64 hex digits or base64. */
export function serverKeyBytes(text: string): Buffer | null {
  const t = text.trim();
  const buf = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  return buf.length === 32 ? buf : null;
}
