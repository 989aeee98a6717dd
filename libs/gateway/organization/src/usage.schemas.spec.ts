import { monthsBetween, usageHistoryQuerySchema } from './usage.schemas';

describe('usage history query', () => {
  const parse = (startDate: unknown, endDate: unknown) =>
    usageHistoryQuerySchema.safeParse({ startDate, endDate });
  const pathOf = (startDate: unknown, endDate: unknown) => {
    const result = parse(startDate, endDate);
    return result.success ? undefined : result.error.issues[0]?.path.join('.');
  };

  it('takes calendar dates YYYY-MM-DD, start before end, at most 24 months', () => {
    expect(parse('2025-01-01', '2026-12-31').success).toBe(true);
    expect(pathOf('2025-01-01', '2027-01-01')).toBe('endDate');
    expect(pathOf('2026-02-01', '2026-01-31')).toBe('endDate');
    expect(pathOf('2026-02-30', '2026-03-01')).toBe('startDate');
    expect(pathOf('2026-2-01', '2026-03-01')).toBe('startDate');
    expect(pathOf('2026-01-01', undefined)).toBe('endDate');
    expect(pathOf('2026-01-01T00:00:00Z', '2026-03-01')).toBe('startDate');
  });

  it('spans the months of the range, across years', () => {
    expect(monthsBetween('2025-11-20', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});
