import { emailJobSchema } from '../email/email-job';
import { type DigestItem, digestRequest } from './digest';
import { deliveryJobOf } from './delivery-job';
import { directEmailBodySchema, sendBodySchema } from './send-body';
import {
  normalizeDirectEmail,
  normalizeSend,
  type NormalizedSend,
  type SendRequested,
  sendRequestedSchema,
} from './send-request';
import { isSensitiveSend } from './sensitive-send';

const limits = { scheduleAheadMs: 86_400_000 };
const send: NormalizedSend = {
  notificationId: 'notify_member_invitation',
  userId: 'ann@example.com',
  recipient: { email: 'ann@example.com' },
  parameters: {},
  forceChannels: ['EMAIL'],
  email: { subject: 'Join', html: '<a href="https://x.test/accept_invite?token=t">Join</a>' },
};
const requested = (marked: NormalizedSend): SendRequested => ({
  trackingId: 't-1',
  accountId: 'acc',
  envId: 'env',
  receivedAt: 1,
  test: false,
  source: 'email',
  client: {},
  request: '{}',
  send: marked,
});

describe('isSensitiveSend', () => {
  it('holds for a send or job marked sensitive, and for nothing else', () => {
    expect(isSensitiveSend({ ...send, sensitive: true })).toBe(true);
    expect(isSensitiveSend(send)).toBe(false);
    expect(isSensitiveSend({ sensitive: false })).toBe(false);
  });

  it('travels on the bus message, validated, and into the delivery job made from it', () => {
    const message = sendRequestedSchema.parse(requested({ ...send, sensitive: true }));
    expect(isSensitiveSend(message.send)).toBe(true);
    expect(sendRequestedSchema.safeParse(requested({ ...send, sensitive: 'yes' as never })).success).toBe(
      false,
    );
    const job = emailJobSchema.parse({
      ...deliveryJobOf(message),
      replyTo: [],
      cc: [],
      bcc: [],
      attachments: [],
    });
    expect(isSensitiveSend(job)).toBe(true);
    expect(deliveryJobOf(requested(send))).not.toHaveProperty('sensitive');
  });

  it('marks a digest when any of its sends is marked', () => {
    const item = (n: number, marked: boolean): DigestItem => ({
      trackingId: `t-${n}`,
      receivedAt: n,
      test: false,
      request: '{}',
      send: marked ? { ...send, sensitive: true } : send,
    });
    const due = { accountId: 'a', envId: 'e', channel: 'EMAIL', mode: 'daily' } as const;
    expect(isSensitiveSend(digestRequest(due, [item(1, true), item(2, false)])?.send ?? {})).toBe(true);
    expect(isSensitiveSend(digestRequest(due, [item(1, false), item(2, false)])?.send ?? {})).toBe(false);
  });
});

describe('the public send bodies', () => {
  const to = { id: 'ann', email: 'ann@example.com' };

  it('cannot mark a send sensitive: POST /send drops the field wherever it is put', () => {
    const body = sendBodySchema.parse({
      type: 'welcome',
      to: { ...to, sensitive: true },
      email: { subject: 'Hi', html: '<p>hi</p>', sensitive: true },
      sensitive: true,
    });
    const normalized = normalizeSend(body, 0, limits);
    expect(normalized).not.toHaveProperty('sensitive');
    expect(isSensitiveSend(normalized)).toBe(false);
    expect(JSON.stringify(deliveryJobOf(requested(normalized)))).not.toContain('sensitive');
  });

  it('cannot mark a send sensitive: POST /email drops the field', () => {
    const body = directEmailBodySchema.parse({
      type: 'welcome',
      to: to.email,
      subject: 'Hi',
      html: '<p>hi</p>',
      sensitive: true,
    });
    const normalized = normalizeDirectEmail(body, 0, limits);
    expect(normalized).not.toHaveProperty('sensitive');
    expect(JSON.stringify(normalized)).not.toContain('sensitive');
  });
});
