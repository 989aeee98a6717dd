import { describeSmtpRelay, parseSmtpRelay } from './smtp-relay';

describe('parseSmtpRelay', () => {
  it('gives explicit options, decoding credentials and defaulting the port by scheme', () => {
    expect(parseSmtpRelay('smtps://ann%40acme:p%3Ass@relay.example.com')).toEqual({
      secure: true,
      host: 'relay.example.com',
      port: 465,
      username: 'ann@acme',
      password: 'p:ss',
    });
    expect(parseSmtpRelay('smtp://relay.example.com:2525/')).toEqual({
      secure: false,
      host: 'relay.example.com',
      port: 2525,
    });
    expect(parseSmtpRelay('smtp://relay.example.com').port).toBe(587);
  });

  it.each([
    ['smtp://relay.example.com/?sendmail=true&path=/bin/sh&args=-c', /query options/],
    ['smtp://relay.example.com?secure=false', /query options/],
    ['smtp://relay.example.com/?', /query options/],
    ['smtp://relay.example.com/#x', /fragment/],
    ['smtp://relay.example.com/inbox', /path/],
    ['http://relay.example.com', /scheme/],
    ['sendmail:///usr/sbin/sendmail', /scheme/],
    ['not a url', /not a URL/],
    ['smtp://u:%zz@relay.example.com', /percent-encoding/],
    [`smtp://${'a'.repeat(3_000)}.example.com`, /at most 2048/],
    [42, /expected a URL/],
  ])('refuses %p', (input, problem) => {
    expect(() => parseSmtpRelay(input)).toThrow(problem);
    try {
      parseSmtpRelay(input);
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_PROVIDER_SETTING', kind: 'invalid' });
    }
  });
});

describe('describeSmtpRelay', () => {
  it('never shows the password', () => {
    const shown = describeSmtpRelay(
      parseSmtpRelay('smtps://ann:correct-horse-battery@relay.example.com:465'),
    );
    expect(shown).toBe('smtps://ann:••••tery@relay.example.com:465');
    expect(describeSmtpRelay(parseSmtpRelay('smtp://relay.example.com'))).toBe(
      'smtp://relay.example.com:587',
    );
  });
});
