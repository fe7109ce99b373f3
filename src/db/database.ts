/**
 * The workspace database's type. The kernel declares its own tables here; every module of the
 * workspace half adds its tables to `Database` from its tables.ts (a TypeScript module
 * augmentation, `declare module '../db/database.js'`), so the type is the union of every module's
 * tables while this file, like the rest of the kernel, names none of them. Which module may touch
 * which table is a test (test/table-ownership.test.ts).
 */
import type { Db as KernelDb } from './index.js';
import type { KernelTables } from './tables.js';

// Each module's tables.ts adds its tables.
export interface Database extends KernelTables {}

/** An open workspace database. */
export type Db = KernelDb<Database>;
