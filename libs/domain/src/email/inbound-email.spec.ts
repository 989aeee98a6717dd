import { randomBytes, randomUUID } from 'node:crypto';
import type { DeliveryEvent } from '../delivery-log/delivery-event';
import { webhookFor } from '../webhooks/webhook-event';
import {
  type InboundEmail,
  inboundEmailExtras,
  inboundEmailFields,
  inboundPrefixSchema,
  looksLikeReplyToken,
  readReplyToken,
  replyAddress,
  replyKey,
  splitSubaddress,
} from './inbound-email';

const key = replyKey(randomBytes(32));
const envA = { accountId: 'acct', envId: 'env-a' };
const address = { prefix: 'support.team-24-characters'.slice(0, 24), domain: 'in.example.com' };

describe('reply addresses', () => {
  it('name the message for the environment that sent it, and fit in a local part', () => {
    const trackingId = randomUUID();
    const reply = replyAddress(address, envA, trackingId, key) ?? '';
    expect(reply.split('@')[0]?.length).toBeLessThanOrEqual(64);
    const { address: inbox, detail } = splitSubaddress(reply.toUpperCase());
    expect(inbox).toBe(`${address.prefix}@${address.domain}`);
    expect(readReplyToken(detail ?? '', envA, [key])).toBe(trackingId);
    // Moved to another environment's address, or read with another key, it names nothing.
    expect(readReplyToken(detail ?? '', { ...envA, envId: 'env-b' }, [key])).toBeUndefined();
    expect(readReplyToken(detail ?? '', { ...envA, accountId: 'other' }, [key])).toBeUndefined();
    expect(readReplyToken(detail ?? '', envA, [replyKey(randomBytes(32))])).toBeUndefined();
  });

  it('refuse tampered, truncated and foreign tokens', () => {
    const detail = splitSubaddress(replyAddress(address, envA, randomUUID(), key) ?? '').detail ?? '';
    const flipped = `${detail.slice(0, 5)}${detail[5] === 'a' ? 'b' : 'a'}${detail.slice(6)}`;
    expect(readReplyToken(flipped, envA, [key])).toBeUndefined();
    expect(readReplyToken(detail.slice(1), envA, [key])).toBeUndefined();
    expect(readReplyToken('0'.repeat(detail.length), envA, [key])).toBeUndefined();
    expect(readReplyToken('', envA, [key])).toBeUndefined();
    expect(replyAddress(address, envA, 'not-a-uuid', key)).toBeUndefined();
  });

  it('name the message after a rotation when read with the key rotated out, and nothing without it', () => {
    const trackingId = randomUUID();
    const detail = splitSubaddress(replyAddress(address, envA, trackingId, key) ?? '').detail ?? '';
    const newer = replyKey(randomBytes(32));
    expect(readReplyToken(detail, envA, [newer, key])).toBe(trackingId);
    expect(readReplyToken(detail, envA, [newer])).toBeUndefined();
    expect(readReplyToken(detail, envA, [])).toBeUndefined();
  });

  it('split plain addresses without a detail, and bare local parts', () => {
    expect(splitSubaddress('Support@In.Example.com')).toEqual({ address: 'support@in.example.com' });
    expect(splitSubaddress('Postmaster')).toEqual({ address: 'postmaster' });
    expect(splitSubaddress('a+b')).toEqual({ address: 'a', detail: 'b' });
  });

  it('tell token-shaped details from others', () => {
    const detail = splitSubaddress(replyAddress(address, envA, randomUUID(), key) ?? '').detail ?? '';
    expect(looksLikeReplyToken(detail)).toBe(true);
    expect(looksLikeReplyToken('a'.repeat(39))).toBe(true);
    expect(looksLikeReplyToken('newsletter')).toBe(false);
    expect(looksLikeReplyToken('1'.repeat(39))).toBe(false);
  });
});

describe('inbound prefixes', () => {
  it.each(['a', 'support', 'help-desk_2', 'first.last', 'x'.repeat(24)])('accept %s', (prefix) => {
    expect(inboundPrefixSchema.safeParse(prefix).success).toBe(true);
  });
  it.each(['', '-a', 'a-', 'a+b', 'a..b', 'a b', 'x'.repeat(25), 'ü', 'a@b', 'bounces', 'Postmaster'])(
    'refuse %j',
    (prefix) => {
      expect(inboundPrefixSchema.safeParse(prefix).success).toBe(false);
    },
  );
  it('lower-cases', () => {
    expect(inboundPrefixSchema.parse(' Support ')).toBe('support');
  });
});

describe('an inbound email', () => {
  const mail: InboundEmail = {
    from: 'ann@example.com',
    fromName: 'Ann',
    to: ['support@in.example.com', 'bob@example.com'],
    cc: ['carol@example.com'],
    bcc: [],
    replyTo: ['ann+replies@example.com'],
    subject: 'Re: your order',
    bodyText: 'Thanks!',
    bodyHtml: '<p>Thanks!</p>',
    attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', size: 3 }],
    messageId: '<m1@example.com>',
    inReplyTo: '<t1@notify>',
    references: ['<t0@notify>', '<t1@notify>'],
    receivedAt: '2026-11-24T10:00:00.000Z',
  };

  it('fills every email_inbound field', () => {
    const fields = inboundEmailFields(mail, 'support@in.example.com', 'reply');
    expect(fields).toMatchObject({
      email_inbound_to: 'support@in.example.com,bob@example.com',
      email_inbound_inbox: 'support@in.example.com',
      email_inbound_references: '<t0@notify> <t1@notify>',
      email_inbound_has_attachments: true,
      email_inbound_attachment_count: 1,
      email_inbound_resolution_type: 'reply',
    });
  });

  it('is forwarded as EMAIL_INBOUND with the webhook payload plus the message fields, with or without a user', () => {
    const event: DeliveryEvent = {
      eventId: 'e1',
      accountId: 'acct',
      envId: 'env',
      trackingId: 't1',
      event: 'email_inbound',
      time: Date.parse(mail.receivedAt),
      fields: inboundEmailFields(mail, 'support@in.example.com', 'builtin'),
      webhookExtras: inboundEmailExtras(mail),
    };
    const webhook = webhookFor(event);
    expect(webhook?.resField).toBe('email_inbound_webhook_res');
    expect(webhook?.deliveredField).toBe('email_inbound_webhook_delivered');
    expect(webhook?.payload).toEqual({
      eventType: 'EMAIL_INBOUND',
      channel: 'EMAIL',
      userId: '',
      notificationId: '',
      trackingId: 't1',
      timestamp: mail.receivedAt,
      from: mail.from,
      fromName: mail.fromName,
      to: mail.to,
      cc: mail.cc,
      replyTo: mail.replyTo,
      subject: mail.subject,
      bodyText: mail.bodyText,
      bodyHtml: mail.bodyHtml,
      attachments: mail.attachments,
      messageId: mail.messageId,
      inReplyTo: mail.inReplyTo,
      references: mail.references,
      receivedAt: mail.receivedAt,
    });
  });
});
