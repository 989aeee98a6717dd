import { EmbeddedCoordinationStore, UsageLimitsStore } from '@notify/cache';
import { loadAppConfig } from '@notify/platform';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { eventually, FakeClock, tempDir, testLogger } from '@notify/testing';
import { PaymentRequiredError } from '@notify/util';
import { UsageLimits } from './usage-limits';

/** Counts the reads that reach the coordination store. */
class CountingLimitsStore extends UsageLimitsStore {
  reads = 0;
  /** What the next reads do instead of reading: fail, or never answer. */
  outage?: 'error' | 'hang';
  override blockedUntil(organizationId: string, now: number) {
    this.reads++;
    if (this.outage === 'error') return Promise.reject(new Error('connection refused'));
    if (this.outage === 'hang') return new Promise<undefined>(() => undefined);
    return super.blockedUntil(organizationId, now);
  }
}

describe('UsageLimits', () => {
  const clock = new FakeClock(Date.parse('2026-01-20T10:00:00.000Z'));
  let dirs: { path: string; remove: () => Promise<void> }[];
  let coordination: EmbeddedCoordinationStore;
  let store: EmbeddedDocumentStore;
  let marks: CountingLimitsStore;
  let limits: UsageLimits;

  async function open(env: Record<string, string>) {
    dirs = [await tempDir('notify-limits-'), await tempDir('notify-limits-store-')];
    coordination = new EmbeddedCoordinationStore({ path: dirs[0]?.path ?? '', logger: testLogger() });
    store = new EmbeddedDocumentStore(dirs[1]?.path ?? '');
    const accounts = new AccountRepository(store);
    await accounts.createAccount({
      accountId: 'acc-1',
      name: 'A',
      createdAt: '2026-01-15T00:00:00.000Z',
      organizationId: 'org_1',
    });
    await accounts.createAccount({ accountId: 'acc-2', name: 'B', createdAt: '2026-01-15T00:00:00.000Z' });
    marks = new CountingLimitsStore(coordination);
    limits = new UsageLimits(marks, accounts, loadAppConfig(env), clock, testLogger());
    await limits.onModuleInit();
  }

  afterEach(async () => {
    await limits.onModuleDestroy();
    await coordination.close();
    await store.close();
    for (const dir of dirs) await dir.remove();
  });

  const refusal = (accountId: string) =>
    limits.check(accountId).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('refuses the accounts of an organization billing marked over its limit, with the reset day', async () => {
    await open({ STRIPE_SECRET_KEY: 'sk_test_123' });
    await new UsageLimitsStore(coordination).block('org_1', '2026-02-15', clock.now());
    const error = await refusal('acc-1');
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({ code: 'USAGE_LIMIT_EXCEEDED' });
    expect((error as Error).message).toContain('2026-02-15');
    // An account older than organizations is in org_<accountId>, which is not marked.
    expect(await refusal('acc-2')).toBeUndefined();
  });

  it('reads the store at most once per few seconds per organization, and hears a lift at once', async () => {
    await open({ STRIPE_SECRET_KEY: 'sk_test_123' });
    const billing = new UsageLimitsStore(coordination);
    await billing.block('org_1', '2026-02-15', clock.now());
    for (let i = 0; i < 20; i++) expect(await refusal('acc-1')).toBeDefined();
    expect(marks.reads).toBe(1);
    await billing.lift('org_1');
    await eventually(async () => expect(await refusal('acc-1')).toBeUndefined(), 2_000);
    expect(marks.reads).toBe(1);
  });

  it('lets the organization send again once its cycle resets', async () => {
    await open({ STRIPE_SECRET_KEY: 'sk_test_123' });
    await new UsageLimitsStore(coordination).block('org_1', '2026-02-15', clock.now());
    expect(await refusal('acc-1')).toBeDefined();
    clock.set('2026-02-15T00:00:00.000Z');
    expect(await refusal('acc-1')).toBeUndefined();
    clock.set('2026-01-20T10:00:00.000Z');
  });

  it('keeps the last known mark when the store fails or does not answer, without hanging the send', async () => {
    await open({ STRIPE_SECRET_KEY: 'sk_test_123' });
    await new UsageLimitsStore(coordination).block('org_1', '2026-02-15', clock.now());
    expect(await refusal('acc-1')).toBeInstanceOf(PaymentRequiredError);
    marks.outage = 'error';
    clock.advance(10_000);
    expect(await refusal('acc-1')).toBeInstanceOf(PaymentRequiredError);
    marks.outage = 'hang';
    clock.advance(10_000);
    const started = performance.now();
    expect(await refusal('acc-1')).toBeInstanceOf(PaymentRequiredError);
    expect(performance.now() - started).toBeLessThan(1_000);
    // Nothing known: the send goes on.
    await new AccountRepository(store).createAccount({
      accountId: 'acc-3',
      name: 'C',
      createdAt: '2026-01-15T00:00:00.000Z',
      organizationId: 'org_3',
    });
    expect(await refusal('acc-3')).toBeUndefined();
    marks.outage = undefined;
    clock.set('2026-01-20T10:00:00.000Z');
  });

  it('refuses nobody with billing off', async () => {
    await open({});
    await new UsageLimitsStore(coordination).block('org_1', '2026-02-15', clock.now());
    expect(await refusal('acc-1')).toBeUndefined();
    expect(marks.reads).toBe(0);
  });
});
