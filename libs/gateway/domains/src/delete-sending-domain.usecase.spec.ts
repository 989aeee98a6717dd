import { NotFoundError } from '@notify/util';
import { domainsHarness, type DomainsHarness } from './testing/domains.harness';

describe('DeleteSendingDomainUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let h: DomainsHarness;

  beforeEach(async () => (h = await domainsHarness()));
  afterEach(() => h.close());

  it('forgets the domain and its key; another environment’s, or one not there, is 404', async () => {
    await h.add.execute(scope, 'acme.test');
    await expect(h.remove.execute({ ...scope, envId: 'other' }, 'acme.test')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await h.remove.execute(scope, 'acme.test')).toEqual({ success: true });
    expect(await h.repository.get(scope, 'acme.test')).toBeUndefined();
    await expect(h.remove.execute(scope, 'acme.test')).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });
});
