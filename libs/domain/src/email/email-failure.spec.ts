import { checkEmail, classifySmtpFailure } from './email-failure';

describe('classifySmtpFailure', () => {
  it.each([
    [
      550,
      '550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown',
      false,
      'PERMANENT_NO_EMAIL_BOUNCE',
    ],
    [550, '550 Requested action not taken: mailbox unavailable', false, 'PERMANENT_NO_EMAIL_BOUNCE'],
    [552, '552 5.2.2 Mailbox full', false, 'TRANSIENT_MAILBOX_FULL_BOUNCE'],
    [552, '552 5.3.4 Message size exceeds fixed limit', false, 'TRANSIENT_MESSAGE_TOO_LARGE_BOUNCE'],
    [554, '554 5.7.1 Message rejected as spam', false, 'TRANSIENT_CONTENT_REJECTED_BOUNCE'],
    [554, '554 5.7.1 Attachment type not allowed', false, 'TRANSIENT_ATTACHMENT_REJECTED_BOUNCE'],
    [553, '553 5.7.1 Sender address rejected: not owned by user', false, 'UNVERIFIED_SENDER'],
    [554, '554 Transaction failed', false, 'PERMANENT_GENERAL_BOUNCE'],
    [421, '421 4.3.2 Service not available, closing channel', true, 'TRANSIENT_GENERAL_BOUNCE'],
    [452, '452 4.2.2 Mailbox full', true, 'TRANSIENT_MAILBOX_FULL_BOUNCE'],
    [undefined, 'connect ECONNREFUSED 127.0.0.1:25', true, 'TRANSIENT_GENERAL_BOUNCE'],
  ])('%p %s → retry=%p %s', (code, response, retry, failure) => {
    expect(classifySmtpFailure(code, response)).toEqual({ retry, code: failure });
  });
});

describe('checkEmail', () => {
  const job = { to: 'ann@example.com', subject: 'Hi', html: '<p>Hi</p>', fromAddress: 'app@acme.io' };

  it('accepts a complete email', () => expect(checkEmail(job, [])).toBeUndefined());

  it.each([
    [{ to: undefined }, 'MISSING_EMAIL_RECIPIENT'],
    [{ to: 'not an address' }, 'MISSING_EMAIL_RECIPIENT'],
    [{ subject: ' ' }, 'MISSING_EMAIL_SUBJECT'],
    [{ html: undefined }, 'MISSING_EMAIL_HTML'],
  ])('%p fails with %s', (change, code) => {
    expect(checkEmail({ ...job, ...change }, [])?.code).toBe(code);
  });

  it('refuses a sender outside the verified domains, when any are configured', () => {
    expect(checkEmail(job, ['other.io'])?.code).toBe('UNVERIFIED_SENDER');
    expect(checkEmail(job, ['acme.io'])).toBeUndefined();
  });
});
