import { quietUntil } from './quiet-hours';

const at = (iso: string) => Date.parse(iso);
const night = { start: '22:00', end: '07:00' };

describe('quietUntil', () => {
  it('is quiet overnight, until the end on the next morning, in the user’s zone', () => {
    expect(quietUntil(at('2026-03-10T23:30:00Z'), night)).toBe(at('2026-03-11T07:00:00Z'));
    expect(quietUntil(at('2026-03-11T03:00:00Z'), night)).toBe(at('2026-03-11T07:00:00Z'));
    expect(quietUntil(at('2026-03-11T07:00:00Z'), night)).toBeUndefined();
    expect(quietUntil(at('2026-03-11T12:00:00Z'), night)).toBeUndefined();
    // 23:30 in Paris (UTC+1 in winter) is 22:30 UTC.
    expect(quietUntil(at('2026-02-10T22:30:00Z'), night, 'Europe/Paris')).toBe(at('2026-02-11T06:00:00Z'));
  });

  it('handles a quiet time within one day', () => {
    const lunch = { start: '12:00', end: '13:30' };
    expect(quietUntil(at('2026-05-05T12:45:00Z'), lunch)).toBe(at('2026-05-05T13:30:00Z'));
    expect(quietUntil(at('2026-05-05T13:30:00Z'), lunch)).toBeUndefined();
    expect(quietUntil(at('2026-05-05T11:59:00Z'), lunch)).toBeUndefined();
    expect(quietUntil(at('2026-05-05T12:00:00Z'), { start: '12:00', end: '12:00' })).toBeUndefined();
  });

  it('counts days by the day the quiet time starts', () => {
    const weekends = { start: '20:00', end: '08:00', days: ['fri' as const, 'sat' as const] };
    // Friday 2026-03-13 21:00 → Saturday 08:00.
    expect(quietUntil(at('2026-03-13T21:00:00Z'), weekends)).toBe(at('2026-03-14T08:00:00Z'));
    // Saturday 03:00 belongs to Friday's quiet time.
    expect(quietUntil(at('2026-03-14T03:00:00Z'), weekends)).toBe(at('2026-03-14T08:00:00Z'));
    // Monday 03:00 belongs to Sunday night, which is not quiet.
    expect(quietUntil(at('2026-03-16T03:00:00Z'), weekends)).toBeUndefined();
    // Thursday 21:00 is not quiet.
    expect(quietUntil(at('2026-03-12T21:00:00Z'), weekends)).toBeUndefined();
  });

  it('ends at the local end time across DST changes (New York and Paris, spring and autumn)', () => {
    // New York springs forward on 2026-03-08 at 02:00: 07:00 EDT is 11:00 UTC (the night began in EST).
    expect(quietUntil(at('2026-03-08T04:00:00Z'), night, 'America/New_York')).toBe(
      at('2026-03-08T11:00:00Z'),
    );
    // It falls back on 2026-11-01: 07:00 EST is 12:00 UTC.
    expect(quietUntil(at('2026-11-01T04:30:00Z'), night, 'America/New_York')).toBe(
      at('2026-11-01T12:00:00Z'),
    );
    // Paris springs forward on 2026-03-29 at 02:00 → 03:00: 07:00 CEST is 05:00 UTC.
    expect(quietUntil(at('2026-03-28T22:30:00Z'), night, 'Europe/Paris')).toBe(at('2026-03-29T05:00:00Z'));
    // And falls back on 2026-10-25: 07:00 CET is 06:00 UTC.
    expect(quietUntil(at('2026-10-24T22:30:00Z'), night, 'Europe/Paris')).toBe(at('2026-10-25T06:00:00Z'));
  });

  it('ends a quiet time whose end falls in a spring-forward gap just after the gap', () => {
    const early = { start: '01:00', end: '02:30' };
    // Paris, 2026-03-29: 02:30 does not exist; the end is 03:00 CEST = 01:00 UTC.
    const until = quietUntil(at('2026-03-29T00:15:00Z'), early, 'Europe/Paris');
    expect(until).toBeDefined();
    expect(until).toBeGreaterThan(at('2026-03-29T00:15:00Z'));
    expect(until).toBeLessThanOrEqual(at('2026-03-29T01:30:00Z'));
  });

  it('handles month ends and leap days', () => {
    expect(quietUntil(at('2028-02-28T23:00:00Z'), night)).toBe(at('2028-02-29T07:00:00Z'));
    expect(quietUntil(at('2028-02-29T23:00:00Z'), night)).toBe(at('2028-03-01T07:00:00Z'));
    expect(quietUntil(at('2026-12-31T23:00:00Z'), night)).toBe(at('2027-01-01T07:00:00Z'));
  });
});
