/**
 * What a module of the workspace half (accounts, deals, contacts, …) hands the composition, from
 * its module.ts: its REST operations (`routes`, in documentation order) and its background tasks
 * (`tasks`, named in api/tasks.ts). compose/modules.ts lists the modules; the route table and the
 * background loop are concatenations of what they declare. Its tables (tables.ts: their types,
 * added to db/database.ts) are created by the files of its `migrations/` folder, which
 * compose/database.ts finds when a database is opened, without loading any module's operations.
 */
import type { AnyRoute } from './route-def.js';
import type { TaskFactory, TaskName } from './tasks.js';

export interface WorkspaceModule {
  /** Its /api/v1 operations, in documentation order. */
  readonly routes?: readonly AnyRoute[];
  /** Its background tasks, by name. */
  readonly tasks?: Partial<Record<TaskName, TaskFactory>>;
}
