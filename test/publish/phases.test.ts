import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PHASES, phaseClock } from '../../src/publish/phases.js';
import { progress } from '../../src/commands/progress.js';
import { main } from '../../src/cli.js';
import { capturedEnv } from '../helpers/cli.js';
import { writePanel } from '../helpers/signals-panel.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-phases-');
afterAll(() => dirs.removeAll());

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

  /** The lines a terminal shows for `text`: a carriage return goes back to the line's start, ESC[2K clears it. */
  const screen = (text: string): string[] => {
    const lines: string[] = [];
    let line = '';
    let col = 0;
    for (let i = 0; i < text.length; i++) {
      if (text.startsWith('\x1b[2K', i)) {
        line = '';
        i += 3;
      } else if (text[i] === '\r') col = 0;
      else if (text[i] === '\n') {
        lines.push(line);
        line = '';
        col = 0;
      } else {
        line = line.slice(0, col) + text[i] + line.slice(col + 1);
        col++;
      }
    }
    return line ? [...lines, line] : lines;
  };

  it("shows publish's warnings on lines of their own, never after the progress line's text", async () => {
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    await writePanel(input);
    const c = tty();
    const code = await main(['node', 'storelens', 'publish', '--input', input, '--out', path.join(root, 'out'), '--runs', path.join(root, 'runs'), '--all', '--cards', 'none'], c.env);
    expect(code, c.stderr()).toBe(0);
    const shown = screen(c.stderr());
    const warning = shown.find((l) => l.includes('have no share card (--cards none)'));
    expect(warning, shown.join('\n')).toMatch(/^warning: \d+ stat\(s\) of /);
    expect(shown).toContainEqual(expect.stringMatching(/^publish: published 3 month\(s\) in \d/));
  });

  it('writes nothing when stderr is not a terminal', () => {
    const c = capturedEnv();
    const bar = progress(c.env, 'publish');
    bar.phase('reading');
    bar.done('published');
    expect(c.stderr()).toBe('');
  });
});

/** The text of a section of docs/publishing.md, from its heading to the next one. */
const section = (heading: string): string => {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/publishing.md'), 'utf8');
  const at = doc.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(-1);
  const rest = doc.slice(at + heading.length + 2);
  return rest.slice(0, rest.search(/^## /m) === -1 ? undefined : rest.search(/^## /m));
};

describe('docs/publishing.md', () => {
  it('describes every phase --json reports, in order', () => {
    const rows = [...section('## One run, phase by phase').matchAll(/^\| `([a-z]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...PHASES]);
  });

  it('describes every field of the --json summary, in the order publish prints them', async () => {
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    await writePanel(input);
    const c = capturedEnv();
    expect(await main(['node', 'storelens', 'publish', '--input', input, '--out', path.join(root, 'out'), '--runs', path.join(root, 'runs'), '--all', '--cards', 'none', '--json'], c.env)).toBe(0);
    const rows = [...section('## What `--json` says').matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|/gm)].flatMap((m) => m[1].split(', ').map((f) => f.slice(1, -1)));
    expect(rows).toEqual(Object.keys(JSON.parse(c.stdout())));
  });
});
