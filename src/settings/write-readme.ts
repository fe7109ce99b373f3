/** `npm run readme`: rewrites the option list of README.md from the settings table. */
import { readFile, writeFile } from 'node:fs/promises';
import { withSettingsSection } from './readme.js';

const readme = new URL('../../README.md', import.meta.url);
const before = await readFile(readme, 'utf8');
const after = withSettingsSection(before);
if (after !== before) await writeFile(readme, after);
process.stderr.write(after === before ? 'README.md: the option list is up to date\n' : 'README.md: option list rewritten\n');
