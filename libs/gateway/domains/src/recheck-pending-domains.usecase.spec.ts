import { eventually } from '@notify/testing';
import { domainsHarness, type DomainsHarness } from './testing/domains.harness';
import { RECHECK_PERIOD_MS } from './recheck-pending-domains.usecase';

describe('RecheckPendingDomainsUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let h: DomainsHarness;

  beforeEach(async () => (h = await domainsHarness()));
  afterEach(() => h.close());

  it('looks every environment’s pending domains up once per period, whoever else asks in it', async () => {
    const [mine] = await h.add.execute(scope, 'acme.test');
    const [theirs] = await h.add.execute({ accountId: 'b', envId: 'f' }, 'other.test');
    await h.add.execute(scope, 'never.test');
    if (mine === undefined || theirs === undefined) throw new Error('not added');
    h.publish(mine);
    h.publish(theirs);
    // The start of a period at least half a period after the adds looked them up.
    h.clock.set(Math.ceil((h.clock.now() + RECHECK_PERIOD_MS / 2) / RECHECK_PERIOD_MS) * RECHECK_PERIOD_MS);

    const [first, second] = await Promise.all([h.recheck.execute(), h.recheck.execute()]);
    expect([first, second].sort()).toEqual([0, 3]);
    expect((await h.repository.get(scope, 'acme.test'))?.status).toBe('SUCCESS');
    expect((await h.repository.get({ accountId: 'b', envId: 'f' }, 'other.test'))?.status).toBe('SUCCESS');
    expect((await h.repository.get(scope, 'never.test'))?.status).toBe('PENDING');

    h.clock.advance(RECHECK_PERIOD_MS);
    expect(await h.recheck.execute()).toBe(1);
  });

  it('does nothing while its previous run is still looking up, and looks the longest unchecked up first', async () => {
    await h.add.execute(scope, 'later.test');
    h.clock.advance(1_000);
    await h.add.execute(scope, 'earlier.test');
    // later.test was added first, so it has waited longest since its last lookup.
    h.clock.advance(RECHECK_PERIOD_MS);
    const looked: string[] = [];
    const lookups = jest.spyOn(h.resolver, 'txt').mockImplementation(async (name) => {
      looked.push(name.split('.').slice(-2).join('.'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { kind: 'none' };
    });
    const first = h.recheck.execute();
    await eventually(() => expect(lookups).toHaveBeenCalledTimes(2));
    // The next period begins while the first run is still waiting on the resolver.
    h.clock.advance(RECHECK_PERIOD_MS);
    expect(await h.recheck.execute()).toBe(0);
    expect(await first).toBe(2);
    expect(lookups).toHaveBeenCalledTimes(2);
    expect(looked).toEqual(['later.test', 'earlier.test']);
  });
});
