import { normalizeTestEmail, testEmailBodySchema } from './test-email';

const LIMITS = { scheduleAheadMs: 86_400_000 };
const body = (over: Record<string, unknown> = {}) =>
  testEmailBodySchema.parse({
    notificationId: 'welcome',
    to: 'ann@example.com',
    subject: 'Welcome {{firstName}}',
    html: '<p>Order {{order.id}}</p>',
    fromAddress: '',
    fromName: '',
    ...over,
  });

describe('test email', () => {
  it('is a direct email of the notification type to `to`, its merge tags given sample values', () => {
    const send = normalizeTestEmail(body({ previewText: 'For {{firstName}}' }), 1_000, LIMITS);
    expect(send).toMatchObject({
      notificationId: 'welcome',
      userId: 'ann@example.com',
      recipient: { email: 'ann@example.com' },
      forceChannels: ['EMAIL'],
      email: {
        subject: 'Welcome {{firstName}}',
        html: '<p>Order {{order.id}}</p>',
        previewText: 'For {{firstName}}',
      },
      parameters: { firstName: '[firstName]', order: { id: '[order.id]' } },
    });
    expect(send.scheduledFor).toBeUndefined();
  });

  it('reads empty sender fields as the default sender, and keeps given ones', () => {
    expect(normalizeTestEmail(body(), 0, LIMITS).options?.email).toMatchObject({
      fromAddress: undefined,
      fromName: undefined,
    });
    const given = normalizeTestEmail(body({ fromAddress: 'news@acme.example', fromName: 'Acme' }), 0, LIMITS);
    expect(given.options?.email).toMatchObject({ fromAddress: 'news@acme.example', fromName: 'Acme' });
  });

  it('refuses what a direct email refuses, and a template that does not parse', () => {
    expect(testEmailBodySchema.safeParse({ ...body(), to: 'not an address' }).success).toBe(false);
    expect(testEmailBodySchema.safeParse({ ...body(), fromAddress: 'nobody' }).success).toBe(false);
    expect(testEmailBodySchema.safeParse({ ...body(), fromName: 'a\r\nBcc: x@y.z' }).success).toBe(false);
    expect(testEmailBodySchema.safeParse({ ...body(), subject: 'x'.repeat(2_001) }).success).toBe(false);
    expect(testEmailBodySchema.safeParse({ ...body(), notificationId: '' }).success).toBe(false);
    expect(() => normalizeTestEmail(body({ html: '{{#each items}}' }), 0, LIMITS)).toThrow(
      /^html: syntax error/,
    );
  });
});
