import { InvalidPhoneNumberError } from '@notify/domain';
import { SecretBox } from '@notify/platform';
import { EmbeddedDocumentStore, UserRepository } from '@notify/store';
import { aScope, aUser, aWebPushSubscription, FakeClock, tempDir } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { IdentifyUserUseCase } from './identify-user.usecase';

describe('IdentifyUserUseCase', () => {
  const scope = aScope();
  const otherEnv = aScope({ envId: 'env-2' });
  let clock: FakeClock;
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let users: UserRepository;
  let identify: IdentifyUserUseCase;
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The use case's answer as a promise, whether it refuses before or after reaching the store. */
  const attempt = async (...args: Parameters<IdentifyUserUseCase['execute']>) => identify.execute(...args);

  beforeEach(async () => {
    const dir = await tempDir('notify-identify-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    users = new UserRepository(store, new SecretBox(randomBytes(32)));
    clock = new FakeClock();
    identify = new IdentifyUserUseCase(users, clock);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('creates the user at the clock’s time, its number stored in E.164', async () => {
    const user = await identify.execute(scope, 'u-1', aUser({ number: '(415) 555-2671' }));
    expect(user).toMatchObject({
      id: 'u-1',
      email: 'ann@example.test',
      number: '+14155552671',
      createdAt: iso(clock.now()),
      updatedAt: iso(clock.now()),
      lastSeenTime: iso(clock.now()),
    });
    expect(await users.get(scope, 'u-1')).toEqual(user);
  });

  it('updates a known user: fields given replace, others stay, createdAt stays', async () => {
    const created = clock.now();
    await identify.execute(scope, 'u-1', aUser());
    clock.advance(60_000);
    const user = await identify.execute(scope, 'u-1', { email: 'bob@example.test', id: 'u-1' });
    expect(user).toMatchObject({
      email: 'bob@example.test',
      number: '+15005550006',
      createdAt: iso(created),
      updatedAt: iso(clock.now()),
    });
  });

  it('merges web push subscriptions per endpoint rather than replacing the list', async () => {
    const first = aWebPushSubscription({ endpoint: 'https://push.example.invalid/push/a' });
    const second = aWebPushSubscription({ endpoint: 'https://push.example.invalid/push/b' });
    await identify.execute(scope, 'u-1', { webPushTokens: [{ sub: first }] });
    const user = await identify.execute(scope, 'u-1', { webPushTokens: [{ sub: second }] });
    expect(user.webPushTokens?.map((t) => t.sub.endpoint)).toEqual([first.endpoint, second.endpoint]);
  });

  it('writes only in the caller’s environment: the same id elsewhere is neither seen nor changed', async () => {
    await identify.execute(otherEnv, 'u-1', aUser({ email: 'other@example.test' }));
    clock.advance(60_000);
    const user = await identify.execute(scope, 'u-1', { number: '+15005550007' });
    expect(user.email).toBeUndefined();
    expect(user.createdAt).toBe(iso(clock.now()));
    expect(await users.get(otherEnv, 'u-1')).toMatchObject({
      email: 'other@example.test',
      number: '+15005550006',
    });
  });

  it('refuses a body id other than the path’s with 400 USER_ID_MISMATCH, storing nothing', async () => {
    const identified = attempt(scope, 'u-1', { ...aUser(), id: 'u-2' });
    await expect(identified).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(identified).rejects.toMatchObject({ code: 'USER_ID_MISMATCH', kind: 'invalid' });
    expect(await users.get(scope, 'u-1')).toBeUndefined();
    expect(await users.get(scope, 'u-2')).toBeUndefined();
  });

  it('refuses a number that is not a phone number with 400 INVALID_PHONE_NUMBER, storing nothing', async () => {
    await identify.execute(scope, 'u-1', aUser());
    const identified = attempt(scope, 'u-1', { number: 'call me maybe' });
    await expect(identified).rejects.toBeInstanceOf(InvalidPhoneNumberError);
    await expect(identified).rejects.toMatchObject({ code: 'INVALID_PHONE_NUMBER', kind: 'invalid' });
    expect((await users.get(scope, 'u-1'))?.number).toBe('+15005550006');
  });
});
