import { alignSeries, insightsRequest, perChannel, problemsOf, type InsightResult } from './queries';

const result = (
  Id: string,
  points: [string, number][],
  Messages: InsightResult['Messages'] = [],
): InsightResult => ({
  Id,
  Label: Id,
  Timestamps: points.map(([t]) => t),
  Values: points.map(([, v]) => v),
  StatusCode: 'Complete',
  Messages,
});

describe('insightsRequest', () => {
  const request = insightsRequest(Date.UTC(2026, 10, 26, 10), Date.UTC(2026, 10, 26, 11), 60);

  it('asks for the counts, the failure rate over them, latency percentiles and each channel', () => {
    expect(request.StartTime).toBe('2026-11-26T10:00:00.000Z');
    expect(request.EndTime).toBe('2026-11-26T11:00:00.000Z');
    const ids = request.MetricDataQueries.map((q) => q.Id);
    expect(ids.slice(0, 6)).toEqual([
      'sent',
      'delivered',
      'failed',
      'failure_rate',
      'latency_p50',
      'latency_p99',
    ]);
    expect(ids).toContain('failed_sms');
    expect(new Set(ids).size).toBe(ids.length);
    expect(request.MetricDataQueries.length).toBe(6 + 21);
    expect(request.MetricDataQueries.find((q) => q.Id === 'failed_sms')?.MetricStat).toEqual({
      Metric: {
        Namespace: 'Notifications',
        MetricName: 'Failed',
        Dimensions: [{ Name: 'Channel', Value: 'SMS' }],
      },
      Period: 60,
      Stat: 'Sum',
    });
    expect(request.MetricDataQueries.find((q) => q.Id === 'latency_p99')?.MetricStat?.Stat).toBe('p99');
  });
});

describe('alignSeries', () => {
  const start = Date.UTC(2026, 10, 26, 10, 0, 30);
  const end = Date.UTC(2026, 10, 26, 10, 3);
  const results = [
    result('sent', [['2026-11-26T10:01:00.000Z', 4]]),
    result('failure_rate', [['2026-11-26T10:00:00.000Z', 25]]),
  ];

  it('puts each value in its period on one axis from the start to the end', () => {
    const { times, series } = alignSeries(results, ['sent', 'failure_rate'], start, end, 60, false);
    expect(times.map((t) => new Date(t * 1000).toISOString().slice(11, 16))).toEqual([
      '10:00',
      '10:01',
      '10:02',
    ]);
    expect(series.map((s) => s.values)).toEqual([
      [null, 4, null],
      [25, null, null],
    ]);
  });

  it('counts nothing as 0 when asked', () => {
    expect(alignSeries(results, ['sent'], start, end, 60, true).series[0]?.values).toEqual([0, 4, 0]);
  });
});

describe('perChannel', () => {
  it('sums each channel over the range and leaves out channels with nothing', () => {
    const rows = perChannel([
      result('sent_email', [
        ['a', 3],
        ['b', 2],
      ]),
      result('delivered_email', [['a', 4]]),
      result('failed_sms', [['a', 1]]),
    ]);
    expect(rows).toEqual([
      { channel: 'EMAIL', counts: { Sent: 5, Delivered: 4, Failed: 0 } },
      { channel: 'SMS', counts: { Sent: 0, Delivered: 0, Failed: 1 } },
    ]);
  });
});

describe('problemsOf', () => {
  it('says each problem once, without paging tokens', () => {
    const tooFine = { Code: 'PeriodTooFine', Value: 'too fine' };
    expect(
      problemsOf([result('a', [], [tooFine, { Code: 'NextToken', Value: 'x' }]), result('b', [], [tooFine])]),
    ).toEqual(['PeriodTooFine: too fine']);
  });
});
