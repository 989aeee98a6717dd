import { mailDomainSchema } from './inbound-email';
import { senderDomainSchema } from './sending-domain';

describe('the domain-name schemas', () => {
  it('read a mail domain and a sender’s domain by one rule', () => {
    for (const text of ['Acme.Test', 'bücher.example'])
      expect(mailDomainSchema.parse(text)).toBe(senderDomainSchema.parse(text));
    for (const text of ['printer.local', 'db.internal', '10.0.0.1', 'localhost']) {
      expect(mailDomainSchema.safeParse(text).success).toBe(false);
      expect(senderDomainSchema.safeParse(text).success).toBe(false);
    }
    // A mail domain is a domain alone; a sender may be an address on one.
    expect(mailDomainSchema.safeParse('ann@acme.test').success).toBe(false);
    expect(senderDomainSchema.parse('ann@acme.test')).toBe('acme.test');
  });
});
