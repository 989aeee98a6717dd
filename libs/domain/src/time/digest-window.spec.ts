import { minutesOfHour, nextDigestAt } from './digest-window';

const at = (iso: string) => Date.parse(iso);

describe('nextDigestAt', () => {
  it('reads hours as the dashboards write them', () => {
    expect(minutesOfHour('9')).toBe(540);
    expect(minutesOfHour('09:30')).toBe(570);
    expect(minutesOfHour('5pm')).toBe(1_020);
    expect(minutesOfHour('12am')).toBe(0);
    expect(minutesOfHour('25')).toBeUndefined();
    expect(minutesOfHour(undefined)).toBeUndefined();
  });

  it('sends hourly digests at the next full hour', () => {
    expect(nextDigestAt(at('2026-03-10T10:20:00Z'), 'hourly', undefined)).toBe(at('2026-03-10T11:00:00Z'));
    expect(nextDigestAt(at('2026-03-10T10:00:00Z'), 'hourly', undefined)).toBe(at('2026-03-10T11:00:00Z'));
    // India is UTC+5:30: its full hours fall on half hours UTC.
    expect(nextDigestAt(at('2026-03-10T10:20:00Z'), 'hourly', undefined, 'Asia/Kolkata')).toBe(
      at('2026-03-10T10:30:00Z'),
    );
  });

  it('sends daily digests at the type’s hour in the user’s zone, across DST changes', () => {
    const options = { defaultDeliveryOption: 'daily' as const, daily: { enabled: true, hour: '08:00' } };
    expect(nextDigestAt(at('2026-03-10T07:00:00Z'), 'daily', options)).toBe(at('2026-03-10T08:00:00Z'));
    expect(nextDigestAt(at('2026-03-10T09:00:00Z'), 'daily', options)).toBe(at('2026-03-11T08:00:00Z'));
    // New York springs forward on 2026-03-08: 08:00 EST on the 7th is 13:00 UTC, 08:00 EDT on the 8th is 12:00 UTC.
    expect(nextDigestAt(at('2026-03-07T14:00:00Z'), 'daily', options, 'America/New_York')).toBe(
      at('2026-03-08T12:00:00Z'),
    );
    // Paris falls back on 2026-10-25: 08:00 CET is 07:00 UTC.
    expect(nextDigestAt(at('2026-10-24T07:00:00Z'), 'daily', options, 'Europe/Paris')).toBe(
      at('2026-10-25T07:00:00Z'),
    );
    // Without an hour: 09:00.
    expect(nextDigestAt(at('2026-03-10T07:00:00Z'), 'daily', undefined)).toBe(at('2026-03-10T09:00:00Z'));
  });

  it('sends weekly digests on the type’s day', () => {
    const options = {
      defaultDeliveryOption: 'weekly' as const,
      weekly: { enabled: true, day: 'Friday', hour: '17:00' },
    };
    // 2026-03-10 is a Tuesday.
    expect(nextDigestAt(at('2026-03-10T12:00:00Z'), 'weekly', options)).toBe(at('2026-03-13T17:00:00Z'));
    expect(nextDigestAt(at('2026-03-13T17:00:00Z'), 'weekly', options)).toBe(at('2026-03-20T17:00:00Z'));
    expect(nextDigestAt(at('2026-03-10T12:00:00Z'), 'weekly', undefined)).toBe(at('2026-03-16T09:00:00Z'));
  });

  it('sends monthly digests on the first or last day, through month ends and leap years', () => {
    const last = {
      defaultDeliveryOption: 'monthly' as const,
      monthly: { enabled: true, date: 'last' as const, hour: '18:00' },
    };
    expect(nextDigestAt(at('2028-02-10T12:00:00Z'), 'monthly', last)).toBe(at('2028-02-29T18:00:00Z'));
    expect(nextDigestAt(at('2027-02-10T12:00:00Z'), 'monthly', last)).toBe(at('2027-02-28T18:00:00Z'));
    expect(nextDigestAt(at('2026-04-30T19:00:00Z'), 'monthly', last)).toBe(at('2026-05-31T18:00:00Z'));
    expect(nextDigestAt(at('2026-12-15T00:00:00Z'), 'monthly', undefined)).toBe(at('2027-01-01T09:00:00Z'));
  });
});
