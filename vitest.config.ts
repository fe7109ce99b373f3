import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // With DATABASE_URL: one migrated template database the tests' fresh databases are copied from.
    globalSetup: ['test/helpers/global-db.ts'],
    environment: 'node',
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default there is one): most files wait on
    // databases, sockets, child processes and Chromium rather than on the CPU.
    maxWorkers: 2,
    // A worker runs file after file without reloading its modules: starting each of ~130 files in a
    // fresh process spent about 600 worker-seconds importing (half the suite). No test keeps state
    // in a module (clocks are injected, fake timers are restored after each test, no file changes
    // process.env), so a file sees the same modules it would see alone.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every storelens process a test spawns checks its answers against their declared schemas
    // (as startApi does in process): data written through any door is served as documented.
    env: { TZ: 'UTC', STORELENS_VALIDATE_RESPONSES: '1' },
  },
});
