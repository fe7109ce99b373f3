/** `npm run cli-docs`: rewrites the option list of docs/cli.md from the settings table. */
import { readFile, writeFile } from 'node:fs/promises';
import { withSettingsSection } from './cli-docs.js';

const page = new URL('../../docs/cli.md', import.meta.url);
const before = await readFile(page, 'utf8');
const after = withSettingsSection(before);
if (after !== before) await writeFile(page, after);
process.stderr.write(after === before ? 'docs/cli.md: the option list is up to date\n' : 'docs/cli.md: option list rewritten\n');
