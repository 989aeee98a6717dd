import type { KeyCaller, MemberCaller } from '@notify/gateway-auth';
import { ForbiddenError } from '@notify/util';
import { managingMember } from './member-errors';

describe('members area callers', () => {
  const member: MemberCaller = {
    kind: 'member',
    accountId: 'acct-1',
    userId: 'usr_1',
    email: 'ann@example.com',
    role: 'admin',
  };
  const key: KeyCaller = {
    kind: 'key',
    keyType: 'secret',
    accountId: 'acct-1',
    envId: 'env-1',
    keyId: 'key_1',
    test: false,
  };

  it('lets a member manage people, and refuses an API key (403 FORBIDDEN)', () => {
    expect(managingMember(member)).toBe(member);
    expect(() => managingMember(key)).toThrow(ForbiddenError);
    expect(() => managingMember(key)).toThrow(/API key may list the account's members but not manage them/);
  });
});
