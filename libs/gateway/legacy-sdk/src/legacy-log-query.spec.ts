import { legacyLogQuerySchema, logQueryOf } from './legacy-log-query';

describe("logQueryOf (the older SDKs' queryLogs body)", () => {
  const now = Date.parse('2026-01-05T10:00:00.000Z');
  const parse = (body: unknown) => legacyLogQuerySchema.parse(body);

  it('turns the date range object into the [start, end] pair and keeps the filters', () => {
    expect(
      logQueryOf(
        parse({
          dateRangeFilter: { startTime: 100, endTime: 200 },
          userFilter: ['ann'],
          channelFilter: ['EMAIL'],
          notificationFilter: ['welcome'],
          statusFilter: ['SENT'],
        }),
        now,
      ),
    ).toEqual({
      dateRangeFilter: [100, 200],
      userFilter: ['ann'],
      channelFilter: ['EMAIL'],
      notificationFilter: ['welcome'],
      statusFilter: ['SENT'],
    });
  });

  it('reads a missing start as the oldest record and a missing end as now', () => {
    expect(logQueryOf(parse({}), now).dateRangeFilter).toEqual([0, now / 1_000]);
    expect(logQueryOf(parse({ dateRangeFilter: { startTime: 5 } }), now).dateRangeFilter).toEqual([
      5,
      now / 1_000,
    ]);
  });

  it('refuses an end before the start, and the filters log queries do not have, with 400', () => {
    expect(() => logQueryOf(parse({ dateRangeFilter: { startTime: 10, endTime: 5 } }), now)).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'VALIDATION_ERROR' }),
    );
    for (const filter of [{ trackingIds: ['t'] }, { requestFilter: ['x'] }, { customFilter: 'a = 1' }])
      expect(() => logQueryOf(parse(filter), now)).toThrow(
        expect.objectContaining({ code: 'UNSUPPORTED_LOG_FILTER' }),
      );
    // Empty lists filter nothing, so they are no reason to refuse.
    expect(logQueryOf(parse({ trackingIds: [], requestFilter: [] }), now).dateRangeFilter).toEqual([
      0,
      now / 1_000,
    ]);
  });
});
