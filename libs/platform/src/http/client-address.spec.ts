import type { IncomingMessage } from 'node:http';
import { clientAddress, proxyTrust } from './client-address';

const request = (remoteAddress: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY trusts the hop', () => {
    expect(clientAddress(request('10.0.0.5', '203.0.113.9'), proxyTrust(false))).toBe('10.0.0.5');
    expect(clientAddress(request('10.0.0.5', '203.0.113.9'), proxyTrust(true))).toBe('203.0.113.9');
  });

  it('believes as many hops as the count, and only the listed proxies', () => {
    const chain = request('10.0.0.5', '198.51.100.1, 203.0.113.9');
    expect(clientAddress(chain, proxyTrust(1))).toBe('203.0.113.9');
    expect(clientAddress(chain, proxyTrust(2))).toBe('198.51.100.1');
    expect(clientAddress(chain, proxyTrust(['10.0.0.0/8']))).toBe('203.0.113.9');
    expect(clientAddress(chain, proxyTrust(['192.168.0.1']))).toBe('10.0.0.5');
  });
});
