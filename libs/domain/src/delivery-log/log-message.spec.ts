import { inboundEmailFields, type InboundEmail } from '../email/inbound-email';
import { logMessageOf } from './log-message';

const T = Date.UTC(2026, 10, 26, 9, 30, 0, 123);

const mail: InboundEmail = {
  from: 'bob@example.test',
  fromName: 'Bob',
  to: ['support@in.example.test', 'sales@in.example.test'],
  cc: ['carol@example.test'],
  bcc: [],
  replyTo: ['bob+replies@example.test'],
  subject: 'Re: your order',
  bodyText: 'Thanks!',
  bodyHtml: '<p>Thanks!</p>',
  attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', size: 10 }],
  messageId: '<m2@example.test>',
  inReplyTo: '<m1@example.test>',
  references: ['<m0@example.test>', '<m1@example.test>'],
  receivedAt: '2026-11-26T09:30:00.000Z',
};

describe('logMessageOf', () => {
  it('lists any event by its name and time, nothing else', () => {
    expect(
      logMessageOf({ trackingId: 't1', event: 'email_sent', time: T, fields: { email_sent_at: 'x' } }),
    ).toEqual({
      trackingId: 't1',
      eventType: 'email_sent',
      timestamp: '2026-11-26T09:30:00.123Z',
      epochMs: T,
    });
  });

  it('gives an inbound email the message fields the inbound service logged', () => {
    const fields = inboundEmailFields(mail, 'support@in.example.test', 'reply');
    expect(logMessageOf({ trackingId: 't2', event: 'email_inbound', time: T, fields })).toEqual({
      trackingId: 't2',
      eventType: 'email_inbound',
      timestamp: '2026-11-26T09:30:00.123Z',
      epochMs: T,
      inbox: 'support@in.example.test',
      from: 'bob@example.test',
      fromName: 'Bob',
      subject: 'Re: your order',
      to: ['support@in.example.test', 'sales@in.example.test'],
      cc: ['carol@example.test'],
      replyTo: 'bob+replies@example.test',
      bodyText: 'Thanks!',
      bodyHtml: '<p>Thanks!</p>',
      messageId: '<m2@example.test>',
      inReplyTo: '<m1@example.test>',
      references: '<m0@example.test> <m1@example.test>',
      resolutionType: 'reply',
    });
  });

  it('leaves out what the log kept empty, and attachments, which it keeps only as a count', () => {
    const fields = inboundEmailFields(
      { ...mail, fromName: '', cc: [], replyTo: [], bodyHtml: '', inReplyTo: '', references: [] },
      'support@in.example.test',
      'builtin',
    );
    const message = logMessageOf({ trackingId: 't3', event: 'email_inbound', time: T, fields });
    for (const absent of [
      'fromName',
      'cc',
      'bcc',
      'replyTo',
      'bodyHtml',
      'inReplyTo',
      'references',
      'attachments',
    ])
      expect(message).not.toHaveProperty(absent);
    expect(message).toMatchObject({ resolutionType: 'builtin', bodyText: 'Thanks!' });
  });

  it('gives an inbound SMS its sender, number, text and media', () => {
    const media = JSON.stringify([
      { url: 'https://api.twilio.test/m/1', contentType: 'image/png' },
      { url: 'https://api.twilio.test/m/2', contentType: '' },
    ]);
    expect(
      logMessageOf({
        trackingId: 't4',
        event: 'sms_inbound',
        time: T,
        fields: {
          sms_inbound_at: 'x',
          sms_inbound_from: '+15005550006',
          sms_inbound_to: '+15005550001',
          sms_inbound_text: 'STOP?',
          sms_inbound_media: media,
        },
      }),
    ).toEqual({
      trackingId: 't4',
      eventType: 'sms_inbound',
      timestamp: '2026-11-26T09:30:00.123Z',
      epochMs: T,
      from: '+15005550006',
      to: ['+15005550001'],
      bodyText: 'STOP?',
      media: [
        { url: 'https://api.twilio.test/m/1', contentType: 'image/png' },
        { url: 'https://api.twilio.test/m/2' },
      ],
    });
  });

  it('lists no media when the logged JSON was cut at its bound, and no unknown resolution type', () => {
    const message = logMessageOf({
      trackingId: 't5',
      event: 'sms_inbound',
      time: T,
      fields: {
        sms_inbound_media: '[{"url":"https://api.twilio.test/m/1","contentTy',
        email_inbound_resolution_type: 'forwarded',
      },
    });
    expect(message).not.toHaveProperty('media');
    expect(message).not.toHaveProperty('resolutionType');
  });
});
