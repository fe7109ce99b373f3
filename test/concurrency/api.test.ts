/**
 * The concurrency suite over real processes: for each dialect, one database and two
 * `storelens api` processes over it (started once: a process takes seconds to start), and every
 * aggregate's races against them. Each race fires concurrent requests split over both processes,
 * then checks what they stored against the promises of docs/operations.md.
 */
import { describe } from 'vitest';
import { dialects } from '../helpers/db.js';
import { accountRaces } from './accounts.races.js';
import { contactRaces } from './contacts.races.js';
import { dealRaces } from './deals.races.js';
import { useFleet } from './fixture.js';
import { outreachRaces } from './outreach.races.js';
import { rateLimitRaces } from './rate-limit.races.js';
import { walletRaces } from './wallet.races.js';
import { watchRaces } from './watches.races.js';
import { webhookEndpointRaces } from './webhook-endpoints.races.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`two api processes over one ${d.label} database`, () => {
    const fleet = useFleet(d.name);
    accountRaces(fleet);
    contactRaces(fleet);
    dealRaces(fleet);
    outreachRaces(fleet);
    walletRaces(fleet);
    watchRaces(fleet, d);
    webhookEndpointRaces(fleet);
    rateLimitRaces(fleet);
  });
}
