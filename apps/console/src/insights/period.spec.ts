import { periodFor } from './period';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('periodFor', () => {
  it.each([
    [HOUR, 60],
    [DAY, 900],
    [7 * DAY, 7_200],
    [30 * DAY, 21_600],
    [90 * DAY, 86_400],
  ])('a range of %d ms asks for %d s', (range, period) => expect(periodFor(range)).toBe(period));

  it('keeps within the number of points asked for', () => {
    for (const range of [HOUR, 6 * HOUR, DAY, 7 * DAY, 30 * DAY])
      expect(range / 1000 / periodFor(range)).toBeLessThanOrEqual(120);
  });

  it('is never finer than the service keeps for the age of the range', () => {
    expect(periodFor(20 * DAY, 100_000) % 300).toBe(0);
    expect(periodFor(70 * DAY, 100_000) % 3_600).toBe(0);
    expect(periodFor(5 * DAY, 100_000) % 60).toBe(0);
  });
});
