/** An error meant for the person running the CLI: the message names file, row and field. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1 = failure, 2 = bad usage or bad input. */
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const isCliError = (e: unknown): e is CliError => e instanceof CliError;
