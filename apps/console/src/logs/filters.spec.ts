import { toLogQuery, type LogFilters } from './filters';

const none: LogFilters = { user: '', notificationId: '', channel: '', status: '', from: '', to: '' };
const now = Date.UTC(2026, 10, 26, 12, 0, 0);

describe('toLogQuery', () => {
  it('searches the last 24 hours when no range is given, with no filter', () => {
    expect(toLogQuery(none, now)).toEqual({ dateRangeFilter: [now / 1000 - 86_400, now / 1000] });
  });

  it('sends each filter set, splitting comma-separated users and types', () => {
    const body = toLogQuery(
      { ...none, user: ' ann, bob ,', notificationId: 'welcome', channel: 'SMS', status: 'FAILED' },
      now,
    );
    expect(body).toEqual({
      dateRangeFilter: [now / 1000 - 86_400, now / 1000],
      userFilter: ['ann', 'bob'],
      notificationFilter: ['welcome'],
      channelFilter: ['SMS'],
      statusFilter: ['FAILED'],
    });
  });

  it('reads the range in whole seconds and swaps an end before the start', () => {
    const from = '2026-11-20T10:00:30.500Z';
    const to = '2026-11-19T10:00:00.000Z';
    expect(toLogQuery({ ...none, from, to }, now).dateRangeFilter).toEqual([
      Date.parse(to) / 1000,
      Math.floor(Date.parse(from) / 1000),
    ]);
  });

  it('ignores a time it cannot read', () => {
    expect(toLogQuery({ ...none, from: 'not a time' }, now).dateRangeFilter).toEqual([
      now / 1000 - 86_400,
      now / 1000,
    ]);
  });
});
