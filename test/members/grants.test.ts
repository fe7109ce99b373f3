import { describe, expect, it } from 'vitest';
import { MEMBER_GRANTS, memberGrants } from '../../src/members/grants.js';

describe('grants of a signed-in member', () => {
  it('gives every member the day-to-day scopes and no webhook management', () => {
    expect(memberGrants('member', 'owners')).toEqual(MEMBER_GRANTS);
    expect(memberGrants('member', 'owners')).not.toContain('manage:webhooks');
  });

  it('gives wallet reads to members only when the workspace shows the wallet to all', () => {
    expect(memberGrants('member', 'owners')).not.toContain('read:wallet');
    expect(memberGrants('member', 'all')).toContain('read:wallet');
  });

  it('gives owners and admins the wallet and webhook management whatever the visibility', () => {
    for (const role of ['owner', 'admin'] as const) {
      expect(memberGrants(role, 'owners')).toEqual(expect.arrayContaining([...MEMBER_GRANTS, 'read:wallet', 'manage:webhooks']));
    }
  });

  it('gives a removed member nothing', () => {
    expect(memberGrants(null, 'all')).toEqual([]);
  });
});
