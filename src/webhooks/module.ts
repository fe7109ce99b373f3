/** The webhooks module: endpoints, the outbox of events and their signed delivery. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { createDeliverer } from './deliver.js';
import { type EventTypeList, webhookRoutes } from './routes.js';

/** Made by the composition with the event catalogue's types (compose/events.ts), which its routes accept. */
export const webhooksModule = (eventTypes: EventTypeList): WorkspaceModule => ({
  routes: webhookRoutes(eventTypes),
  tasks: {
    // Fans events out and starts their sends, which run off the loop; stop() waits for them.
    deliver: ({ db, opts, trigger }) => {
      const w = opts.outbound;
      if (!w) return undefined;
      const d = createDeliverer(db, { now: opts.now, box: w.box, guard: w.guard, ca: w.ca, log: opts.warn ?? opts.log, onSettled: () => trigger('deliver') });
      return { everyMs: opts.deliverEveryMs ?? 1_000, atStart: true, afterEveryWrite: true, run: async () => void (await d.pump()), stop: () => d.stop() };
    },
  },
});

declare module '../api/tasks.js' {
  interface TaskNames {
    deliver: true;
  }
  interface BackgroundOptions {
    /** How often the outbox is looked at for events to deliver (default 1 s); delivery needs `outbound`. */
    deliverEveryMs?: number;
  }
}
