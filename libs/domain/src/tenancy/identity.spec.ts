import { memberActor, memberOfActor, normalizeEmail, roleAllows } from './identity';

describe('identity', () => {
  it('records a member as `member:<userId>` and reads only such actors back', () => {
    expect(memberActor('usr_1')).toBe('member:usr_1');
    expect(memberOfActor(memberActor('usr_1'))).toBe('usr_1');
    expect(memberOfActor('key_1')).toBeUndefined();
  });

  it('ranks roles owner > admin > member', () => {
    expect(roleAllows('owner', 'admin')).toBe(true);
    expect(roleAllows('admin', 'owner')).toBe(false);
    expect(roleAllows('member', 'member')).toBe(true);
    expect(roleAllows('member', 'admin')).toBe(false);
  });

  it('spells an email one way', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com');
  });
});
