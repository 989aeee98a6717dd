import { createPrivateKey, X509Certificate } from 'node:crypto';
import { makePeerTls } from './peer-tls';

describe('makePeerTls', () => {
  const tls = makePeerTls();
  const ca = new X509Certificate(tls.ca);
  const leaf = new X509Certificate(tls.cert);

  it('is made once per process', () => {
    expect(makePeerTls()).toBe(tls);
  });

  it('issues a leaf for localhost and 127.0.0.1, signed by its CA', () => {
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkPrivateKey(createPrivateKey(tls.key))).toBe(true);
  });

  it('is valid from an hour ago for a year', () => {
    const from = Date.parse(leaf.validFrom);
    const to = Date.parse(leaf.validTo);
    expect(Date.now() - from).toBeGreaterThanOrEqual(3_590_000);
    expect(Date.now() - from).toBeLessThan(3_700_000);
    expect(to - from).toBeGreaterThanOrEqual(365 * 86_400_000);
  });
});
