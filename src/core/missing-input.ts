/**
 * A value left out, told as a person would say it. zod's own words for a field not given are
 * "Invalid input: expected string, received undefined" (or "Invalid option: expected one of
 * "won"|"lost"" for a choice): a client, or a model calling a tool, reads that as a value of the
 * wrong type. Passed as the parse's `error` wherever outside input is parsed (the operations of
 * the REST API and the MCP tools through them, `accounts import` lines, `workspaces profile`):
 * a missing field is `required`, a missing choice `required: one of "won", "lost"`. A message a
 * schema sets itself still wins (zod asks the schema before the parse), and a value given but of
 * the wrong type keeps zod's words, which name what was received.
 */
import type { z } from 'zod';

const saidMissing: z.core.$ZodErrorMap = (issue) => {
  if (issue.input !== undefined) return undefined;
  if (issue.code === 'invalid_type') return 'required';
  if (issue.code === 'invalid_value') return `required: one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return undefined;
};

/** The parse options of outside input: `schema.safeParse(value, OUTSIDE_INPUT)`. */
export const OUTSIDE_INPUT = { error: saidMissing } as const;
