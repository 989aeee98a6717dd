import { ROLES } from './identity';
import { autoJoinBodySchema, emailDomain, mayGrantRole } from './members';

describe('members rules', () => {
  it('takes auto-join domains as lower-cased DNS names, without duplicates', () => {
    expect(autoJoinBodySchema.parse({ domains: ['Corp.Example', 'corp.example', ' b.example '] })).toEqual({
      domains: ['b.example', 'corp.example'],
    });
    for (const bad of [
      '*.corp.example',
      'localhost',
      '10.0.0.1',
      'a..example',
      '-a.example',
      'ann@corp.example',
    ])
      expect(autoJoinBodySchema.safeParse({ domains: [bad] }).success).toBe(false);
    expect(
      autoJoinBodySchema.safeParse({ domains: Array.from({ length: 21 }, (_, i) => `d${i}.example`) })
        .success,
    ).toBe(false);
  });

  it('reads the domain of an email address', () => {
    expect(emailDomain('Ann@Corp.Example')).toBe('corp.example');
  });

  it('lets owners grant any role, admins admin or member, members none', () => {
    expect(ROLES.map((r) => mayGrantRole('owner', r))).toEqual([true, true, true]);
    expect(ROLES.map((r) => mayGrantRole('admin', r))).toEqual([false, true, true]);
    expect(ROLES.map((r) => mayGrantRole('member', r))).toEqual([false, false, false]);
  });
});
