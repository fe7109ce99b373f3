/**
 * What a command may take from the process, passed in so tests can swap it: the environment
 * variables, the output streams and the clock. Only `src/cli.ts` builds one from the real process.
 */
export interface Env {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The descriptor behind `stderr` when it is the process's own (2): a serving process's log writes there through a buffered destination (ops/logger.ts). */
  readonly stderrFd?: number;
  readonly now: () => Date;
}
