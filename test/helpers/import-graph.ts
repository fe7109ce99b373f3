/**
 * The import graph of src/, as dpdm reads it: every module is an entry, so entry points (cli,
 * bench, card worker, checkpointer, refresh thread) and lazily imported commands are all covered.
 * Parsed once per kind per test file.
 */
import { fileURLToPath } from 'node:url';
import { parseDependencyTree, type DependencyTree } from 'dpdm';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = ['src/**/*.ts'];

/** One import: the importing module and what it imports (a src/ path, or the package or node: specifier). */
export interface Import {
  from: string;
  to: string;
}

const trees = new Map<boolean, Promise<DependencyTree>>();

/** The dependency tree of src/; `typeImports: false` leaves out imports erased at compile time. */
export function srcTree(opts: { typeImports: boolean }): Promise<DependencyTree> {
  let tree = trees.get(opts.typeImports);
  if (!tree) {
    tree = parseDependencyTree(ENTRIES, { context: ROOT, transform: !opts.typeImports, skipDynamicImports: false });
    trees.set(opts.typeImports, tree);
  }
  return tree;
}

/** Every import of a src/ module, sorted; a package is named as imported (its resolved path depends on the install). */
export async function srcImports(opts: { typeImports: boolean }): Promise<Import[]> {
  const out: Import[] = [];
  for (const [from, deps] of Object.entries(await srcTree(opts))) {
    if (!from.startsWith('src/')) continue;
    for (const d of deps ?? []) out.push({ from, to: d.id?.startsWith('src/') ? d.id : d.request });
  }
  return out.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
