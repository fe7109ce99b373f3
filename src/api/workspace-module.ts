/**
 * What a module of the workspace half (accounts, deals, contacts, …) hands the composition, from
 * its module.ts: its REST operations (`routes`, in documentation order), its background tasks
 * (`tasks`, named in api/tasks.ts) and the migrations of its tables (`migrations`; its tables.ts
 * adds their types to db/database.ts). compose/modules.ts lists the modules; the route table,
 * the background loop and the migrations are concatenations of what they declare.
 */
import type { Migrations } from '../db/migrate.js';
import type { AnyRoute } from './route-def.js';
import type { TaskFactory, TaskName } from './tasks.js';

export interface WorkspaceModule {
  /** Its /api/v1 operations, in documentation order. */
  readonly routes?: readonly AnyRoute[];
  /** Its background tasks, by name. */
  readonly tasks?: Partial<Record<TaskName, TaskFactory>>;
  /** The migrations of its tables, by the key each is recorded under. */
  readonly migrations?: Migrations;
}
