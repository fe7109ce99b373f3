/** An error meant for the person running the CLI: the message names file, row and field. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1 = failure, 2 = bad usage or bad input, 128 + n = stopped by signal n (SIGINT 130, SIGTERM 143). */
    readonly exitCode: 1 | 2 | 130 | 143 = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const isCliError = (e: unknown): e is CliError => e instanceof CliError;

/** What failed, in one line, whatever was thrown (an Error without a message, a value that is not an Error). */
export function describeFailure(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'object' && e !== null) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
    try {
      return JSON.stringify(e) ?? String(e);
    } catch {
      return String(e);
    }
  }
  return e === undefined || e === null ? `an unknown failure (${String(e)} was thrown)` : String(e);
}
