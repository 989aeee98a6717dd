import { domainName } from './domain-name';

describe('domainName', () => {
  it.each([
    ['acme.test', 'acme.test'],
    [' Mail.ACME.test. ', 'mail.acme.test'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('takes %p as %p', (text, domain) => expect(domainName(text)).toEqual({ domain }));

  it.each([
    '',
    'acme',
    'localhost',
    '127.0.0.1',
    '[::1]',
    '10.0.0.300',
    'printer.local',
    'db.internal',
    'acme.l',
    'acme.123',
    '-acme.test',
    'acme..test',
    '_spf.acme.test',
    'ann@acme.test',
    '*.acme.test',
    `${'a'.repeat(64)}.test`,
    `${'abcdefghi.'.repeat(26)}test`,
  ])('refuses %p', (text) => expect(domainName(text)).toEqual({ problem: expect.any(String) }));

  it('takes the name of a DNS record, and a local name, only where the rule says', () => {
    expect(domainName('sel._domainkey.acme.test', { recordName: true })).toEqual({
      domain: 'sel._domainkey.acme.test',
    });
    expect(domainName('inbound.notify.localhost', { privateNames: true })).toEqual({
      domain: 'inbound.notify.localhost',
    });
    expect(domainName('localhost', { privateNames: true })).toEqual({ problem: expect.any(String) });
  });
});
