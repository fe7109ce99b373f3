import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startApi, type Harness } from '../helpers/api.js';

// The vocabularies a client codes against, as SPEC and the design state them. Each is declared
// once in its domain module; every operation that takes or returns one shows the same list.
const SPEC_EVENT_TYPES = [
  'deal.created', 'deal.updated', 'deal.stage_changed', 'contact.created',
  'store.entered', 'store.exited', 'store.signal', 'watch.health_changed',
];
const SPEC_STAGES = ['discovery', 'qualifying', 'proposal', 'negotiation', 'won', 'lost'];
const SPEC_LOST_REASONS = ['no_response', 'timing', 'budget', 'chose_another_agency', 'project_cancelled', 'not_a_fit', 'other'];
const ACCOUNT_STATUSES = ['open', 'working', 'qualified', 'disqualified', 'customer', 'do_not_contact'];

describe('domain lists in openapi.json', () => {
  let h: Harness;
  let paths: any;
  beforeAll(async () => {
    h = await startApi('SQLite');
    paths = (await call(h.base, 'GET', '/openapi.json')).body.paths;
  });
  afterAll(async () => h?.close());

  const body = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema.properties;
  const response = (path: string, method: string, status: string) => paths[path][method].responses[status].content['application/json'].schema.properties;

  it('offers exactly the eight event types of SPEC when registering and listing webhooks', () => {
    expect(body('/webhooks', 'post').event_types.items.enum).toEqual(SPEC_EVENT_TYPES);
    const listed = response('/webhooks', 'get', '200').data.items.properties.event_types;
    expect(JSON.stringify(listed)).toContain(JSON.stringify(SPEC_EVENT_TYPES));
  });

  it('takes outcome actions and deal stages from one list', () => {
    expect(body('/outcomes', 'post').action.enum).toEqual(SPEC_STAGES);
    expect(body('/outcomes', 'post').lost_reason.enum).toEqual(SPEC_LOST_REASONS);
    expect(body('/deals/{id}/stage', 'post').stage.enum).toEqual(SPEC_STAGES);
    expect(body('/deals', 'post').stage.enum).toEqual(SPEC_STAGES);
    const stageFilter = paths['/deals'].get.parameters.find((p: any) => p.name === 'stage');
    expect(stageFilter.schema.enum).toEqual(SPEC_STAGES);
  });

  it('sets an account status from the six statuses', () => {
    expect(body('/accounts/{store_id}/status', 'post').status.enum).toEqual(ACCOUNT_STATUSES);
  });
});
