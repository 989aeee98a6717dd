import type { InboundEmail, LastSms, TwilioForm } from '@notify/domain';

/** Twilio's form for an inbound SMS from a user's number to a service number, with the given text. */
export const aTwilioSmsForm = (form: Record<string, string> = {}): TwilioForm => ({
  AccountSid: 'AC00000000000000000000000000000001',
  MessageSid: 'SM00000000000000000000000000000001',
  From: '+14155552671',
  To: '+15005550006',
  Body: 'Hello',
  NumMedia: '0',
  ...form,
});

/** The last SMS sent to a number, as the SMS sender notes it (no auto-reply unless told). */
export const aLastSms = (last: Partial<LastSms> = {}): LastSms => ({
  trackingId: 'trk-1',
  from: '+15005550006',
  sentAt: '2026-01-05T08:00:00.000Z',
  userId: 'u-1',
  notificationId: 'welcome',
  ...last,
});

/** A plain-text message from Bob, as the inbound mail listener reads it. */
export const anInboundEmail = (mail: Partial<InboundEmail> = {}): InboundEmail => ({
  from: 'bob@example.test',
  fromName: 'Bob',
  to: ['inbox@in.example.test'],
  cc: [],
  bcc: [],
  replyTo: [],
  subject: 'Hello',
  bodyText: 'Hello there',
  bodyHtml: '',
  attachments: [],
  messageId: '<m1@example.test>',
  inReplyTo: '',
  references: [],
  receivedAt: '2026-01-05T09:00:00.000Z',
  ...mail,
});
