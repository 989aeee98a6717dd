import { deliveryEventSchema } from './delivery-event';

const event = (fields: Record<string, unknown>) => ({
  eventId: 'e1',
  accountId: 'a',
  envId: 'e',
  trackingId: 't',
  time: 1,
  event: 'email_sent',
  fields,
});

describe('deliveryEventSchema', () => {
  it('accepts catalog fields of the right kind', () => {
    expect(
      deliveryEventSchema.safeParse(event({ email_sent_at: 'x', email_sent_after: 3, test: false })).success,
    ).toBe(true);
  });

  it('refuses unknown fields and values of the wrong kind, naming them', () => {
    const result = deliveryEventSchema.safeParse(event({ email_sent_after: '3', not_a_field: 'x' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).sort()).toEqual([
      'fields.email_sent_after: expected a number',
      'fields.not_a_field: not a log field',
    ]);
  });
});
