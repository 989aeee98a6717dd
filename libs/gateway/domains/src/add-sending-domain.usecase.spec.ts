import { dkimKeyContext, MAX_SENDING_DOMAINS } from '@notify/domain';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { domainsHarness, type DomainsHarness } from './testing/domains.harness';

describe('AddSendingDomainUseCase', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let h: DomainsHarness;

  beforeEach(async () => (h = await domainsHarness()));
  afterEach(() => h.close());

  it('makes the domain its own RSA-2048 key pair, sealed for this environment and domain, and lists its records', async () => {
    const [domain] = await h.add.execute(scope, 'acme.test');
    expect(domain).toMatchObject({ sender: 'acme.test', status: 'PENDING', mailFromDomainStatus: 'PENDING' });
    expect(domain).not.toHaveProperty('privateDKIMKey');
    const stored = await h.repository.get(scope, 'acme.test');
    if (stored === undefined) throw new Error('not stored');
    expect(stored.privateKeySealed).not.toContain('PRIVATE KEY');
    const privateKey = createPrivateKey(
      h.box.open(stored.privateKeySealed, dkimKeyContext(scope, 'acme.test')),
    );
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(domain?.dnsRecords[0]).toEqual({
      type: 'TXT',
      name: `${stored.selector}._domainkey.acme.test`,
      value: `v=DKIM1; k=rsa; p=${publicKey}`,
      purpose: 'DKIM',
      required: true,
    });
    expect(() =>
      h.box.open(stored.privateKeySealed, dkimKeyContext({ ...scope, envId: 'x' }, 'acme.test')),
    ).toThrow();
  });

  it('looks the records up at once: a return path already pointing elsewhere fails the domain', async () => {
    h.zone.load('notify-bounces.acme.test', [{ type: 'CNAME', value: 'elsewhere.test' }]);
    expect((await h.add.execute(scope, 'acme.test'))[0]).toMatchObject({
      status: 'FAILED',
      mailFromDomainStatus: 'FAILED',
      statusReason: 'the return-path CNAME points elsewhere',
    });
  });

  it('keeps a domain the environment has; a FAILED one starts over with the same key', async () => {
    const [first] = await h.add.execute(scope, 'acme.test');
    if (first === undefined) throw new Error('not added');
    h.zone.load(first.dnsRecords[0]?.name ?? '', [{ type: 'TXT', value: 'v=DKIM1; k=rsa; p=OTHER' }]);
    h.clock.advance(60_000);
    expect((await h.list.execute(scope))[0]?.status).toBe('FAILED');
    h.publish(first);
    const [again] = await h.add.execute(scope, 'acme.test');
    expect(again).toMatchObject({ status: 'SUCCESS', selector: first.selector, createdAt: first.createdAt });
    expect(await h.add.execute(scope, 'acme.test')).toEqual([again]);
  });

  it('holds at most MAX_SENDING_DOMAINS per environment', async () => {
    const at = new Date(h.clock.now()).toISOString();
    for (let i = 0; i < MAX_SENDING_DOMAINS; i++)
      await h.repository.create(
        scope,
        {
          domain: `d${i}.test`,
          selector: 's',
          publicKey: 'k',
          privateKeySealed: 'x',
          status: 'SUCCESS',
          pendingSince: at,
          lastSync: at,
          createdAt: at,
        },
        MAX_SENDING_DOMAINS,
      );
    await expect(h.add.execute(scope, 'one-more.test')).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await h.repository.get(scope, 'one-more.test')).toBeUndefined();
    expect(await h.add.execute({ ...scope, envId: 'other' }, 'one-more.test')).toHaveLength(1);
  });
});
