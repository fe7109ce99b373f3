import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHASES, phaseClock } from '../../src/publish/phases.js';
import { progress } from '../../src/commands/progress.js';
import { capturedEnv } from '../helpers/cli.js';

describe('phaseClock', () => {
  it('adds the time of each phase until the next one starts, and a phase entered twice adds up', () => {
    let t = 0;
    const clock = phaseClock(() => t);
    clock.enter('hashing');
    t = 250;
    clock.enter('reading');
    t = 1250;
    clock.enter('writing');
    t = 1500;
    clock.enter('cards');
    t = 4000;
    clock.enter('writing');
    t = 4100;
    clock.stop();
    t = 9000;
    expect(clock.totals()).toEqual({ hashing: 0.25, reading: 1, writing: 0.35, cards: 2.5 });
  });

  it('lists only the phases entered, in pipeline order', () => {
    let t = 0;
    const clock = phaseClock(() => t);
    clock.enter('writing');
    t = 10;
    clock.enter('hashing');
    t = 30;
    expect(Object.keys(clock.totals())).toEqual(['hashing', 'writing']);
  });
});

describe('progress on a terminal', () => {
  const tty = () => {
    const c = capturedEnv();
    (c.env.stderr as { isTTY?: boolean }).isTTY = true;
    return c;
  };

  it('keeps a line with its time for each phase that took a second or more', () => {
    const c = tty();
    let t = 0;
    const bar = progress(c.env, 'publish', { now: () => t });
    bar.phase('reading');
    t = 1050;
    bar.phase('aggregating');
    t = 1300;
    bar.done('published 1 month(s)');
    const lines = c.stderr().split('\n').map((l) => l.split('\r').pop()!.replace(/\x1b\[2K/g, ''));
    expect(lines).toContainEqual(expect.stringMatching(/^publish: reading 1\.\ds$/));
    expect(lines.some((l) => l.startsWith('publish: aggregating '))).toBe(false);
  });

  it('writes nothing when stderr is not a terminal', () => {
    const c = capturedEnv();
    const bar = progress(c.env, 'publish');
    bar.phase('reading');
    bar.done('published');
    expect(c.stderr()).toBe('');
  });
});

describe('docs/publishing.md', () => {
  it('describes every phase --json reports, in order', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/publishing.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...PHASES]);
  });
});
