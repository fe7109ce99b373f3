/** The workspace's target profile: which of the panel's stores are its visible accounts. */
import { z } from 'zod';
import { Profile } from './profile.js';
import { getProfile } from './profile-store.js';
import { defineRoute } from '../api/route-def.js';

export const profileRoutes = [
  defineRoute({
    operationId: 'get_profile',
    method: 'GET',
    path: '/profile',
    tag: 'Accounts',
    summary: "Read the workspace's target profile",
    description:
      "The countries, categories, plans and size bounds (visits, revenue, products) a store must match to be one of the workspace's accounts; a store with an unknown value never passes a bound on it. `profile: null` means the workspace sees every store. An owner or admin sets it with `storelens workspaces profile`.",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    response: z.object({
      object: z.literal('profile'),
      workspace_id: z.string(),
      profile: Profile.nullable(),
      updated_at: z.string().nullable().describe('When the profile was last set or cleared; null when it never was'),
    }),
    async handler({ db, workspace }) {
      const p = await getProfile(db.kysely, workspace.id);
      return { status: 200, body: { object: 'profile' as const, workspace_id: p.workspace_id, profile: p.profile, updated_at: p.updated_at } };
    },
  }),
];
