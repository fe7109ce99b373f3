/**
 * How a contact's email is kept: trimmed, its domain lower-cased (the local part keeps its case:
 * RFC 5321 lets a mail server tell `Ann@` from `ann@`). Two emails that normalise alike are the
 * same contact in a workspace. The API (contacts, a deal's owner) and the contact source (ingest)
 * all go through here.
 */
import { z } from 'zod';

const EMAIL = z.email();

/** `  Ann.Lee@Example.COM ` ⇒ `Ann.Lee@example.com`. */
export function normaliseEmail(raw: string): string {
  const t = raw.trim();
  const at = t.lastIndexOf('@');
  if (at < 0) return t;
  return t.slice(0, at) + '@' + t.slice(at + 1).toLowerCase();
}

/** True when the text, once normalised, is an email address. */
export const isEmail = (raw: string): boolean => isNormalisedEmail(normaliseEmail(raw));

/** isEmail of text already normalised (a contact file checks hundreds of thousands). */
export const isNormalisedEmail = (email: string): boolean => EMAIL.safeParse(email).success;

export const EMAIL_MAX = 320;
