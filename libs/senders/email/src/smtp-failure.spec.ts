import { EgressError } from '@notify/platform';
import { describeSmtpFailure } from './smtp-failure';

const banner = Object.assign(
  new Error('Invalid greeting. response=220 mail-internal-7.corp.local ESMTP Postfix (Debian) ready'),
  {
    code: 'EPROTOCOL',
    command: 'CONN',
    response: '220 mail-internal-7.corp.local ESMTP Postfix (Debian) ready',
  },
);
const refusedRcpt = Object.assign(new Error("Can't send mail - all recipients were rejected"), {
  code: 'EENVELOPE',
  command: 'RCPT TO',
  responseCode: 550,
  response: '550 5.1.1 <x@example.com>:\r\n Recipient address rejected: User unknown',
});
const refusedConnection = Object.assign(new Error('connect ECONNREFUSED 203.0.113.9:2525'), {
  code: 'ESOCKET',
  command: 'CONN',
});

describe('describeSmtpFailure', () => {
  it("keeps the installation's relay replies whole", () => {
    expect(describeSmtpFailure(banner, false).internal).toContain('mail-internal-7.corp.local');
  });

  it("never echoes a tenant relay's banner or connection details, only a short reason", () => {
    for (const error of [banner, refusedConnection]) {
      const text = describeSmtpFailure(error, true);
      expect(JSON.stringify([text.internal, text.diagnostic])).not.toMatch(
        /corp\.local|Postfix|203\.0\.113\.9/,
      );
      expect(text.diagnostic).toBeUndefined();
    }
    expect(describeSmtpFailure(banner, true).internal).toBe(
      'SMTP relay: the relay did not answer as an SMTP server',
    );
    expect(describeSmtpFailure(refusedConnection, true).internal).toBe(
      'SMTP relay: the connection to the relay failed',
    );
    expect(describeSmtpFailure(new Error('weird'), true).internal).toBe(
      'SMTP relay: the relay connection failed',
    );
  });

  it("gives a tenant relay's reply to the message itself, on one bounded line", () => {
    const text = describeSmtpFailure(refusedRcpt, true);
    expect(text.internal).toBe('SMTP relay refused RCPT TO (550)');
    expect(text.diagnostic).toBe('550 5.1.1 <x@example.com>: Recipient address rejected: User unknown');
    const long = describeSmtpFailure({ ...refusedRcpt, response: `550 ${'x'.repeat(5_000)}` }, true);
    expect(long.diagnostic?.length).toBe(300);
    expect(describeSmtpFailure(refusedRcpt, true).reply).toContain('User unknown');
  });

  it('reports a refusal by the egress guard as such', () => {
    const text = describeSmtpFailure(
      new EgressError('relay.example resolves to a private address (10.0.0.5)'),
      true,
    );
    expect(text.internal).toBe('SMTP relay: relay.example resolves to a private address (10.0.0.5)');
  });
});
