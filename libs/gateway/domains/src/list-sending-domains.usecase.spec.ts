import { RECHECK_ON_READ_MS, VERIFICATION_WINDOW_MS } from '@notify/domain';
import { eventually } from '@notify/testing';
import { domainsHarness, type DomainsHarness } from './testing/domains.harness';

describe('ListSendingDomainsUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let h: DomainsHarness;

  beforeEach(async () => (h = await domainsHarness()));
  afterEach(() => h.close());

  it('looks a pending domain up again on a read, at most every RECHECK_ON_READ_MS', async () => {
    const [domain] = await h.add.execute(scope, 'acme.test');
    if (domain === undefined) throw new Error('not added');
    h.publish(domain);
    h.clock.advance(RECHECK_ON_READ_MS - 1);
    expect((await h.list.execute(scope))[0]?.status).toBe('PENDING');
    h.clock.advance(1);
    expect((await h.list.execute(scope))[0]).toMatchObject({
      status: 'SUCCESS',
      mailFromDomainStatus: 'SUCCESS',
      lastSync: new Date(h.clock.now()).toISOString(),
    });
  });

  it('waits for the return path too, and fails a domain still missing a record after the window', async () => {
    const [domain] = await h.add.execute(scope, 'acme.test');
    if (domain === undefined) throw new Error('not added');
    h.publish(domain, ['DKIM']);
    h.clock.advance(RECHECK_ON_READ_MS);
    expect((await h.list.execute(scope))[0]).toMatchObject({
      status: 'PENDING',
      statusReason: 'the return-path CNAME is not published yet',
    });
    h.clock.advance(VERIFICATION_WINDOW_MS);
    expect((await h.list.execute(scope))[0]).toMatchObject({
      status: 'FAILED',
      mailFromDomainStatus: 'PENDING',
    });
  });

  it('starts one lookup per domain however many read at once, and announces a status change', async () => {
    const changes: string[] = [];
    const stop = await h.changes.listen((c) => changes.push(`${c.scope.envId}/${c.domain}/${c.kind}`));
    const [domain] = await h.add.execute(scope, 'acme.test');
    if (domain === undefined) throw new Error('not added');
    h.publish(domain);
    h.clock.advance(RECHECK_ON_READ_MS);
    const lookups = jest.spyOn(h.resolver, 'txt');
    const reads = await Promise.all([h.list.execute(scope), h.list.execute(scope), h.list.execute(scope)]);
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(reads.map((read) => read[0]?.status)).toContain('SUCCESS');
    expect((await h.list.execute(scope))[0]?.status).toBe('SUCCESS');
    await eventually(() => expect(changes).toEqual(['e/acme.test/added', 'e/acme.test/status']));
    await stop();
  });

  it('shows only the environment’s own domains, in domain order', async () => {
    await h.add.execute(scope, 'zeta.test');
    await h.add.execute(scope, 'alpha.test');
    await h.add.execute({ ...scope, envId: 'other' }, 'other.test');
    expect((await h.list.execute(scope)).map((d) => d.sender)).toEqual(['alpha.test', 'zeta.test']);
  });
});
