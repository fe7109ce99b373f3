#!/usr/bin/env node
import { main } from '../dist/cli.js';

// A reader that stops early (`storelens … | head`) closes the pipe: end quietly, as other
// command-line tools do, instead of crashing on the write.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv).then((code) => {
  process.exitCode = code;
});
