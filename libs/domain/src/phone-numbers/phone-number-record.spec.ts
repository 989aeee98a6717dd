import {
  monthlyPriceOf,
  nextBillingDate,
  numberSearchSchema,
  orderNumberSchema,
} from './phone-number-record';

describe('phone number records', () => {
  it('bills monthly on the day the number was first ordered, the month’s last day when shorter', () => {
    const at = (iso: string) => Date.parse(iso);
    expect(nextBillingDate('2026-01-15T10:00:00.000Z', at('2026-01-15T12:00:00.000Z'))).toBe('2026-02-15');
    expect(nextBillingDate('2026-01-15T10:00:00.000Z', at('2026-03-14T23:00:00.000Z'))).toBe('2026-03-15');
    expect(nextBillingDate('2026-01-31T10:00:00.000Z', at('2026-02-03T00:00:00.000Z'))).toBe('2026-02-28');
    expect(nextBillingDate('2025-12-31T10:00:00.000Z', at('2026-12-31T08:00:00.000Z'))).toBe('2027-01-31');
  });

  it('prices a number by country from the rate table, the rest at its * rate', () => {
    expect(monthlyPriceOf('US')).toBe(1.15);
    expect(monthlyPriceOf('CA')).toBe(1.15);
    expect(monthlyPriceOf('FR')).toBe(3);
  });

  it('reads the search query as the pingram client sends it, with a bounded contains', () => {
    expect(
      numberSearchSchema.parse({ countryCode: 'us', features: 'SMS, voice', areaCode: '415', limit: '5' }),
    ).toEqual({ countryCode: 'US', features: ['sms', 'voice'], areaCode: '415', limit: 5 });
    expect(numberSearchSchema.parse({ countryCode: 'CA' })).toEqual({ countryCode: 'CA', limit: 20 });
    expect(numberSearchSchema.safeParse({ countryCode: 'USA' }).success).toBe(false);
    expect(numberSearchSchema.safeParse({ countryCode: 'US', features: 'fax' }).success).toBe(false);
    expect(numberSearchSchema.safeParse({ countryCode: 'US', contains: '55*01' }).success).toBe(false);
    expect(numberSearchSchema.safeParse({ countryCode: 'US', contains: '1'.repeat(17) }).success).toBe(false);
    expect(numberSearchSchema.safeParse({ countryCode: 'US', limit: '51' }).success).toBe(false);
  });

  it('orders E.164 numbers only', () => {
    expect(orderNumberSchema.parse({ phoneNumber: ' +14155550100 ' })).toEqual({
      phoneNumber: '+14155550100',
    });
    expect(orderNumberSchema.safeParse({ phoneNumber: '(415) 555-0100' }).success).toBe(false);
  });
});
