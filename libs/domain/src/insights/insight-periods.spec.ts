import { isValidPeriod, periodMultipleForAge, periodServesAge } from './insight-periods';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('insight periods', () => {
  it('takes 1, 5, 10, 20, 30, 60 or a multiple of 60 seconds', () => {
    for (const period of [1, 5, 10, 20, 30, 60, 120, 300, 3600, 86_400])
      expect(isValidPeriod(period)).toBe(true);
    for (const period of [0, -60, 2, 15, 45, 90, 61, 1.5]) expect(isValidPeriod(period)).toBe(false);
  });

  it('asks for coarser periods the older StartTime is, exactly at the boundaries', () => {
    expect(periodMultipleForAge(-HOUR)).toBe(1);
    expect(periodMultipleForAge(3 * HOUR)).toBe(1);
    expect(periodMultipleForAge(3 * HOUR + 1)).toBe(60);
    expect(periodMultipleForAge(15 * DAY)).toBe(60);
    expect(periodMultipleForAge(15 * DAY + 1)).toBe(300);
    expect(periodMultipleForAge(63 * DAY)).toBe(300);
    expect(periodMultipleForAge(63 * DAY + 1)).toBe(3600);
  });

  it('serves a period only when it is a multiple of what the age asks', () => {
    expect(periodServesAge(1, 2 * HOUR)).toBe(true);
    expect(periodServesAge(30, 4 * HOUR)).toBe(false);
    expect(periodServesAge(60, 4 * HOUR)).toBe(true);
    expect(periodServesAge(60, 20 * DAY)).toBe(false);
    expect(periodServesAge(600, 20 * DAY)).toBe(true);
    expect(periodServesAge(1800, 64 * DAY)).toBe(false);
    expect(periodServesAge(7200, 64 * DAY)).toBe(true);
  });
});
