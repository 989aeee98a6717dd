import {
  dkimSelector,
  recordsToPublish,
  sendingDomainOf,
  senderDomainSchema,
  unverifiedSender,
  VERIFICATION_WINDOW_MS,
  verifySendingDomain,
} from './sending-domain';

describe('sendingDomainOf', () => {
  it.each([
    ['acme.test', 'acme.test'],
    ['  Mail.ACME.test. ', 'mail.acme.test'],
    ['billing@acme.test', 'acme.test'],
    ['"odd@local"@acme.test', 'acme.test'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['acme.co.uk', 'acme.co.uk'],
    ['ann@acme.github.io', 'acme.github.io'],
  ])('%p names %p', (sender, domain) => expect(sendingDomainOf(sender)).toEqual({ domain }));

  it.each([
    [''],
    ['acme'],
    ['127.0.0.1'],
    ['ann@[127.0.0.1]'],
    ['::1'],
    ['10.0.0.300'],
    ['localhost'],
    ['printer.local'],
    ['db.internal'],
    ['1.0.0.127.in-addr.arpa'],
    ['-acme.test'],
    ['acme..test'],
    [`${'a'.repeat(64)}.test`],
    [`${'abcdefghi.'.repeat(26)}test`],
    ['acme_test.com'],
    ['co.uk'],
    ['ann@github.io'],
  ])('refuses %p', (sender) => expect(sendingDomainOf(sender)).toEqual({ problem: expect.any(String) }));

  it('says why a public suffix is refused', () =>
    expect(sendingDomainOf('co.uk')).toEqual({
      problem: 'co.uk is a public suffix; add the domain you own under it',
    }));

  it('is the schema of a sender, bounded in length', () => {
    expect(senderDomainSchema.parse('ann@acme.test')).toBe('acme.test');
    expect(senderDomainSchema.safeParse(`${'a'.repeat(320)}.test`).success).toBe(false);
    expect(senderDomainSchema.safeParse('localhost').success).toBe(false);
  });
});

describe('recordsToPublish', () => {
  const domain = { domain: 'acme.test', selector: 'notifyab12', publicKey: 'MIIBkey' };

  it('lists the DKIM key, the return path, and SPF and DMARC advice', () => {
    expect(
      recordsToPublish(
        { ...domain, returnPathTarget: 'inbound.notify.test' },
        { spfInclude: '_spf.notify.test' },
      ),
    ).toEqual([
      {
        type: 'TXT',
        name: 'notifyab12._domainkey.acme.test',
        value: 'v=DKIM1; k=rsa; p=MIIBkey',
        purpose: 'DKIM',
        required: true,
      },
      {
        type: 'CNAME',
        name: 'notify-bounces.acme.test',
        value: 'inbound.notify.test',
        purpose: 'RETURN_PATH',
        required: true,
      },
      {
        type: 'TXT',
        name: 'acme.test',
        value: 'v=spf1 include:_spf.notify.test ~all',
        purpose: 'SPF',
        required: false,
      },
      {
        type: 'TXT',
        name: '_dmarc.acme.test',
        value: 'v=DMARC1; p=none; rua=mailto:postmaster@acme.test',
        purpose: 'DMARC',
        required: false,
      },
    ]);
  });

  it('has no return path without a bounce host', () => {
    expect(recordsToPublish(domain, { spfInclude: '_spf.notify.test' }).map((r) => r.purpose)).toEqual([
      'DKIM',
      'SPF',
      'DMARC',
    ]);
  });

  it('makes selectors that are DNS labels', () => {
    expect(dkimSelector(Buffer.from('0123456789', 'hex'))).toMatch(/^notify[0-9a-f]{10}$/);
  });
});

describe('verifySendingDomain', () => {
  const key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA';
  const domain = { publicKey: key, returnPathTarget: 'inbound.notify.test', pendingSince: 0 };
  const dkim = (value: string) => ({ kind: 'records' as const, values: [value] });
  const cname = (value: string) => ({ kind: 'records' as const, values: [value] });
  const none = { kind: 'none' as const };
  const timeout = { kind: 'error' as const, reason: 'ETIMEOUT' };

  it('is SUCCESS once the key record (however spaced) and the return path are published', () => {
    expect(
      verifySendingDomain(
        domain,
        {
          dkim: dkim(`v=DKIM1; k=rsa; p=${key.slice(0, 20)} ${key.slice(20)}`),
          returnPath: cname('Inbound.Notify.test.'),
        },
        1,
      ),
    ).toEqual({ status: 'SUCCESS', mailFromStatus: 'SUCCESS' });
  });

  it('stays PENDING while a required record is missing, then FAILED after the window', () => {
    const lookups = { dkim: dkim(`v=DKIM1; k=rsa; p=${key}`), returnPath: none };
    expect(verifySendingDomain(domain, lookups, VERIFICATION_WINDOW_MS - 1)).toMatchObject({
      status: 'PENDING',
      mailFromStatus: 'PENDING',
    });
    expect(verifySendingDomain(domain, lookups, VERIFICATION_WINDOW_MS)).toMatchObject({ status: 'FAILED' });
  });

  it('is FAILED at once when a required record holds another value', () => {
    expect(
      verifySendingDomain(domain, { dkim: dkim('v=DKIM1; k=rsa; p=OTHER'), returnPath: none }, 1),
    ).toMatchObject({
      status: 'FAILED',
      reason: 'the DKIM record holds another public key',
    });
    expect(
      verifySendingDomain(
        domain,
        { dkim: dkim(`v=DKIM1; p=${key}`), returnPath: cname('elsewhere.test') },
        1,
      ),
    ).toEqual({
      status: 'FAILED',
      mailFromStatus: 'FAILED',
      reason: 'the return-path CNAME points elsewhere',
    });
  });

  it('takes a TXT that is no key record as still missing', () => {
    expect(verifySendingDomain(domain, { dkim: dkim('hello'), returnPath: none }, 1)).toMatchObject({
      status: 'PENDING',
    });
  });

  it('stays PENDING while a resolver does not answer, and FAILED after the window all the same', () => {
    const lookups = { dkim: timeout, returnPath: timeout };
    expect(verifySendingDomain(domain, lookups, VERIFICATION_WINDOW_MS - 1)).toEqual({
      status: 'PENDING',
      mailFromStatus: 'PENDING',
      reason: 'the DNS lookup did not answer (ETIMEOUT)',
    });
    expect(verifySendingDomain(domain, lookups, VERIFICATION_WINDOW_MS)).toEqual({
      status: 'FAILED',
      mailFromStatus: 'PENDING',
      reason: 'the DNS lookup did not answer (ETIMEOUT) (gave up after 72 hours)',
    });
  });

  it('needs only the key record for a domain without a return path', () => {
    expect(verifySendingDomain({ publicKey: key, pendingSince: 0 }, { dkim: dkim(`p=${key}`) }, 1)).toEqual({
      status: 'SUCCESS',
    });
  });
});

describe('unverifiedSender', () => {
  const context = { defaultFrom: 'notifications@notify.test', operatorDomains: [] as string[] };

  it('lets the default domain, a verified domain, and (with no operator list) any other through', () => {
    expect(unverifiedSender(undefined, context)).toBeUndefined();
    expect(
      unverifiedSender('alerts@notify.test', { ...context, operatorDomains: ['acme.test'] }),
    ).toBeUndefined();
    expect(unverifiedSender('a@acme.test', { ...context, domainStatus: 'SUCCESS' })).toBeUndefined();
    expect(unverifiedSender('a@other.test', context)).toBeUndefined();
  });

  it('refuses a domain the environment added but has not verified', () => {
    expect(unverifiedSender('a@acme.test', { ...context, domainStatus: 'PENDING' })).toMatch(
      /not verified \(PENDING\)/,
    );
    expect(unverifiedSender('a@acme.test', { ...context, domainStatus: 'FAILED' })).toMatch(/FAILED/);
  });

  it('refuses any other domain when the operator lists verified domains', () => {
    const listed = { ...context, operatorDomains: ['acme.test'] };
    expect(unverifiedSender('a@acme.test', listed)).toBeUndefined();
    expect(unverifiedSender('a@other.test', listed)).toBe('a@other.test is not on a verified sending domain');
    expect(unverifiedSender('a@other.test', { ...listed, domainStatus: 'SUCCESS' })).toBeUndefined();
  });
});
