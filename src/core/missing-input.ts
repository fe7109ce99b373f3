/**
 * A value left out, told as a person would say it. zod's own words for a field not given are
 * "Invalid input: expected string, received undefined" (or "Invalid option: expected one of
 * "won"|"lost"" for a choice): a client, or a model calling a tool, reads that as a value of the
 * wrong type. Passed as the parse's `error` wherever outside input is parsed (the operations of
 * the REST API and the MCP tools through them, `accounts import` lines, `workspaces profile`):
 * a missing field is `required`, a missing choice `required: one of "won", "lost"`, a choice
 * given but not offered `expected one of "won", "lost"` (zod joins the choices with `|`, which
 * reads as part of a value). A message a schema sets itself still wins (zod asks the schema
 * before the parse), and a value given but of the wrong type keeps zod's words, which name what
 * was received.
 */
import type { z } from 'zod';

const saidMissing: z.core.$ZodErrorMap = (issue) => {
  const given = issue.input !== undefined;
  if (issue.code === 'invalid_type') return given ? undefined : 'required';
  if (issue.code !== 'invalid_value') return undefined;
  const choices = issue.values.map((v) => JSON.stringify(v)).join(', ');
  return given ? `expected one of ${choices}` : `required: one of ${choices}`;
};

/** The parse options of outside input: `schema.safeParse(value, OUTSIDE_INPUT)`. */
export const OUTSIDE_INPUT = { error: saidMissing } as const;
