import { InvalidRequestError } from '@notify/util';
import { type InsightQueryBody, type InsightsRequestBody, planInsightsQuery } from './insight-query';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const caller = { nowMs: NOW, accountId: 'acc-1' };

const metric = (
  id: string,
  over: Partial<NonNullable<InsightQueryBody['MetricStat']>> = {},
): InsightQueryBody => ({
  Id: id,
  MetricStat: {
    Metric: {
      Namespace: 'Notifications',
      MetricName: 'Sent',
      Dimensions: [{ Name: 'Channel', Value: 'EMAIL' }],
    },
    Period: 60,
    Stat: 'Sum',
    ...over,
  },
});
const body = (queries: InsightQueryBody[], over: Partial<InsightsRequestBody> = {}): InsightsRequestBody => ({
  StartTime: '2026-01-05T11:00:00Z',
  EndTime: '2026-01-05T12:00:00Z',
  MetricDataQueries: queries,
  ...over,
});
const refusal = (request: InsightsRequestBody): string => {
  try {
    planInsightsQuery(request, caller);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).code).toBe('VALIDATION_ERROR');
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('planInsightsQuery', () => {
  it('plans metric series (range widened to whole periods) and expressions after what they use', () => {
    const plan = planInsightsQuery(
      body(
        [
          { Id: 'rate', Expression: '100 * failed / sent' },
          metric('sent'),
          {
            ...metric('failed', {
              Metric: { Namespace: 'Notifications', MetricName: 'Failed' },
              Period: 300,
            }),
            ReturnData: false,
          },
        ],
        { StartTime: '2026-01-05T11:01:30Z', EndTime: '2026-01-05T11:58:10+00:00' },
      ),
      caller,
    );
    expect(plan.queries.map((q) => q.id)).toEqual(['failed', 'sent', 'rate']);
    expect(plan.returned).toEqual(['rate', 'sent']);
    expect(plan).toMatchObject({
      scanBy: 'TimestampDescending',
      maxDatapoints: 100_800,
      timezoneOffsetMinutes: 0,
    });
    expect(plan.queries[1]).toMatchObject({
      kind: 'metric',
      label: 'Sent EMAIL',
      forbidden: false,
      request: {
        metric: 'Sent',
        filters: { Channel: 'EMAIL' },
        stat: { kind: 'Sum' },
        periodSeconds: 60,
        startMs: Date.parse('2026-01-05T11:01:00Z'),
        endMs: Date.parse('2026-01-05T11:59:00Z'),
      },
    });
    expect(plan.queries[0]).toMatchObject({
      label: 'Failed',
      request: { startMs: Date.parse('2026-01-05T11:00:00Z'), endMs: Date.parse('2026-01-05T12:00:00Z') },
    });
    // An expression's default label is its text; its period the finest of the metrics'.
    expect(plan.queries[2]).toMatchObject({
      kind: 'expression',
      label: '100 * failed / sent',
      periodSeconds: 60,
    });
  });

  it('reads statistics, percentiles on latency metrics, labels, AccountId, ScanBy and Timezone', () => {
    const plan = planInsightsQuery(
      body(
        [
          {
            ...metric('p', {
              Metric: { Namespace: 'Notifications', MetricName: 'Delivered' },
              Stat: 'p99.9',
            }),
            Label: 'latency',
            AccountId: 'acc-2',
          },
          metric('n', { Stat: 'SampleCount', Unit: 'Count' }),
        ],
        { ScanBy: 'TimestampAscending', MaxDatapoints: 10, LabelOptions: { Timezone: '-0530' } },
      ),
      caller,
    );
    expect(plan.queries[0]).toMatchObject({
      label: 'latency',
      forbidden: true,
      request: { stat: { kind: 'percentile', p: 99.9 } },
    });
    expect(plan.queries[1]).toMatchObject({ request: { stat: { kind: 'SampleCount' } } });
    expect(plan).toMatchObject({
      scanBy: 'TimestampAscending',
      maxDatapoints: 10,
      timezoneOffsetMinutes: -330,
    });
  });

  it('plans no data for a period too fine for data as old as StartTime, and says why', () => {
    const old = planInsightsQuery(
      body([metric('m', { Period: 60 })], {
        StartTime: '2025-12-01T00:00:00Z',
        EndTime: '2025-12-02T00:00:00Z',
      }),
      caller,
    );
    expect(old.queries[0]?.periodTooFine).toMatch(/multiple of 300 seconds/);
    const fine = planInsightsQuery(
      body([metric('m', { Period: 300 })], {
        StartTime: '2025-12-01T00:00:00Z',
        EndTime: '2025-12-02T00:00:00Z',
      }),
      caller,
    );
    expect(fine.queries[0]?.periodTooFine).toBeUndefined();
    const recent = planInsightsQuery(
      body([metric('m', { Period: 1 })], { StartTime: '2026-01-05T10:00:00Z' }),
      caller,
    );
    expect(recent.queries[0]?.periodTooFine).toBeUndefined();
  });

  it.each<[string, InsightsRequestBody, string]>([
    [
      'StartTime',
      body([metric('m')], { StartTime: 'yesterday' }),
      'StartTime: expected an ISO 8601 date-time',
    ],
    [
      'StartTime without a zone',
      body([metric('m')], { StartTime: '2026-01-05T11:00:00' }),
      'StartTime: expected',
    ],
    ['EndTime', body([metric('m')], { EndTime: '2026-02-30T00:00:00Z' }), 'EndTime: expected'],
    [
      'the order',
      body([metric('m')], { EndTime: '2026-01-05T11:00:00Z' }),
      'StartTime: must be before EndTime',
    ],
    [
      'ScanBy',
      body([metric('m')], { ScanBy: 'Newest' }),
      'ScanBy: expected TimestampDescending or TimestampAscending',
    ],
    [
      'MaxDatapoints',
      body([metric('m')], { MaxDatapoints: 0 }),
      'MaxDatapoints: expected a whole number from 1 to 100800',
    ],
    ['MaxDatapoints fraction', body([metric('m')], { MaxDatapoints: 1.5 }), 'MaxDatapoints:'],
    ['MaxDatapoints too many', body([metric('m')], { MaxDatapoints: 100_801 }), 'MaxDatapoints:'],
    [
      'Timezone',
      body([metric('m')], { LabelOptions: { Timezone: 'Europe/Paris' } }),
      'LabelOptions.Timezone: expected +HHMM',
    ],
    [
      'Timezone range',
      body([metric('m')], { LabelOptions: { Timezone: '+2460' } }),
      'LabelOptions.Timezone:',
    ],
    ['no queries', body([]), 'MetricDataQueries: at least one query'],
    ['Id', body([metric('m'), metric('Bad')]), 'MetricDataQueries[1].Id: a lowercase letter first'],
    ['Id missing', body([{ ...metric('m'), Id: undefined }]), 'MetricDataQueries[0].Id: required'],
    ['Id with a dash', body([metric('a-b')]), 'MetricDataQueries[0].Id:'],
    [
      'unique Ids',
      body([metric('m'), metric('m')]),
      'MetricDataQueries[1].Id: "m" is also the id of MetricDataQueries[0]',
    ],
    [
      'both',
      body([{ ...metric('m'), Expression: 'm' }]),
      'MetricDataQueries[0]: give either Expression or MetricStat',
    ],
    ['neither', body([{ Id: 'm' }]), 'MetricDataQueries[0]: give either Expression or MetricStat'],
    [
      'Metric',
      body([{ Id: 'm', MetricStat: { Period: 60, Stat: 'Sum' } }]),
      'MetricDataQueries[0].MetricStat.Metric: required',
    ],
    [
      'Namespace',
      body([metric('m', { Metric: { Namespace: 'AWS/SES', MetricName: 'Sent' } })]),
      'MetricDataQueries[0].MetricStat.Metric.Namespace: the namespace is Notifications',
    ],
    [
      'MetricName',
      body([metric('m', { Metric: { Namespace: 'Notifications', MetricName: 'Bounced' } })]),
      'MetricDataQueries[0].MetricStat.Metric.MetricName: "Bounced" is not a metric',
    ],
    [
      'dimension name',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'Région', Value: 'x' }],
          },
        }),
      ]),
      'MetricDataQueries[0].MetricStat.Metric.Dimensions[0].Name: ASCII only',
    ],
    [
      'dimension name with a leading colon',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: ':Channel', Value: 'x' }],
          },
        }),
      ]),
      'Dimensions[0].Name: ASCII only, with a non-whitespace character, no control characters and no leading colon',
    ],
    [
      'blank dimension name',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: '   ', Value: 'x' }],
          },
        }),
      ]),
      'Dimensions[0].Name: ASCII only',
    ],
    [
      'unknown dimension',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'Region', Value: 'x' }],
          },
        }),
      ]),
      'Dimensions[0].Name: "Region" is not a dimension: Channel, NotificationId, EnvId',
    ],
    [
      'dimension twice',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [
              { Name: 'EnvId', Value: 'a' },
              { Name: 'EnvId', Value: 'b' },
            ],
          },
        }),
      ]),
      'Dimensions[1].Name: EnvId is given twice',
    ],
    [
      'dimension value with a control character',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'NotificationId', Value: 'a\nb' }],
          },
        }),
      ]),
      'Dimensions[0].Value: ASCII only',
    ],
    [
      'dimension value not ASCII',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'NotificationId', Value: 'café' }],
          },
        }),
      ]),
      'Dimensions[0].Value: ASCII only',
    ],
    [
      'dimension value missing',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'NotificationId' }],
          },
        }),
      ]),
      'Dimensions[0].Value: required',
    ],
    [
      'channel',
      body([
        metric('m', {
          Metric: {
            Namespace: 'Notifications',
            MetricName: 'Sent',
            Dimensions: [{ Name: 'Channel', Value: 'email' }],
          },
        }),
      ]),
      'Dimensions[0].Value: "email" is not a channel: EMAIL, INAPP_WEB, SMS, CALL, PUSH, WEB_PUSH, SLACK',
    ],
    [
      'Period',
      body([metric('m', { Period: 45 })]),
      'MetricDataQueries[0].MetricStat.Period: 45 is not a period',
    ],
    [
      'Period missing',
      body([metric('m', { Period: undefined })]),
      'MetricDataQueries[0].MetricStat.Period: required',
    ],
    [
      'Period over too long a range',
      body([metric('m', { Period: 1 })], { StartTime: '2026-01-03T11:00:00Z' }),
      'MetricDataQueries[0].MetricStat.Period: 1 s over this time range gives more than 100800 periods',
    ],
    ['query Period', body([{ ...metric('m'), Period: 7 }]), 'MetricDataQueries[0].Period: 7 is not a period'],
    [
      'Stat',
      body([metric('m', { Stat: 'Median' })]),
      'MetricDataQueries[0].MetricStat.Stat: "Median" is not a statistic',
    ],
    [
      'Stat missing',
      body([metric('m', { Stat: undefined })]),
      'MetricDataQueries[0].MetricStat.Stat: required',
    ],
    [
      'percentile 100',
      body([metric('m', { Stat: 'p100' })]),
      'MetricDataQueries[0].MetricStat.Stat: "p100" is not',
    ],
    [
      'percentile 0',
      body([metric('m', { Stat: 'p0' })]),
      'MetricDataQueries[0].MetricStat.Stat: "p0" is not',
    ],
    [
      'latency statistic on a count',
      body([metric('m', { Metric: { Namespace: 'Notifications', MetricName: 'Failed' }, Stat: 'p99' })]),
      'MetricDataQueries[0].MetricStat.Stat: p99 is over delivery latency, which only Sent and Delivered carry; Failed takes Sum or SampleCount',
    ],
    [
      'Average on a count',
      body([metric('m', { Metric: { Namespace: 'Notifications', MetricName: 'Opened' }, Stat: 'Average' })]),
      'MetricDataQueries[0].MetricStat.Stat: Average is over delivery latency',
    ],
    [
      'Unit',
      body([metric('m', { Unit: 'Hours' })]),
      'MetricDataQueries[0].MetricStat.Unit: "Hours" is not a unit',
    ],
    [
      'expression syntax',
      body([metric('m'), { Id: 'e', Expression: 'm +' }]),
      'MetricDataQueries[1].Expression: the expression ends too early',
    ],
    [
      'expression type',
      body([metric('m'), { Id: 'e', Expression: 'RATE(2)' }]),
      'MetricDataQueries[1].Expression: RATE takes one series',
    ],
    [
      'expression list',
      body([metric('m'), { Id: 'e', Expression: '[m, m]' }]),
      'MetricDataQueries[1].Expression: the expression gives a list',
    ],
    [
      'unknown id',
      body([metric('m'), { Id: 'e', Expression: 'm + x' }]),
      'MetricDataQueries[1].Expression: refers to "x", which is not the Id of a query',
    ],
    [
      'itself',
      body([metric('m'), { Id: 'e', Expression: 'e + m' }]),
      'MetricDataQueries[1].Expression: refers to its own Id',
    ],
    [
      'cycle',
      body([
        metric('m'),
        { Id: 'a', Expression: 'b + m' },
        { Id: 'b', Expression: 'c * 2' },
        { Id: 'c', Expression: 'a' },
      ]),
      'MetricDataQueries[1].Expression: the expressions refer to each other in a cycle: a → b → c → a',
    ],
    [
      'too much work in all',
      body(
        Array.from({ length: 25 }, (_, i) => metric(`m${i}`, { Period: 60 })),
        { StartTime: '2025-11-01T00:00:00Z', EndTime: '2026-01-10T00:00:00Z' },
      ),
      'MetricDataQueries[24]: the queries up to this one hold up to 2520025 points × terms between StartTime and EndTime; a request may hold at most 2500000',
    ],
    [
      'a Period over a year',
      body([metric('m', { Period: 31_536_060 })], { StartTime: '2020-01-01T00:00:00Z' }),
      'MetricDataQueries[0].MetricStat.Period: at most 31536000 seconds',
    ],
    [
      'a query Period over a year',
      body([{ ...metric('m'), Period: 31_536_060 }]),
      'MetricDataQueries[0].Period: at most 31536000 seconds',
    ],
    [
      'an expression Period over a year',
      body([metric('m', { Period: 3600 }), { Id: 'e', Expression: 'm', Period: 31_536_060 }], {
        StartTime: '2020-01-01T00:00:00Z',
      }),
      'MetricDataQueries[1].Period: at most 31536000 seconds',
    ],
    [
      'a StartTime before 1970',
      body([metric('m')], { StartTime: '1969-12-31T23:00:00Z', EndTime: '1970-01-01T00:30:00Z' }),
      'StartTime: must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z',
    ],
    [
      'an EndTime after 9999 (by its offset)',
      body([metric('m')], { EndTime: '9999-12-31T23:00:00-05:00' }),
      'EndTime: must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z',
    ],
    [
      'nothing returned',
      body([{ ...metric('m'), ReturnData: false }]),
      'MetricDataQueries: at least one query must return data',
    ],
  ])('refuses %s with a 400 naming the field', (_name, request, message) => {
    expect(refusal(request)).toContain(message);
  });

  describe('one work budget per request, by what each expression computes', () => {
    // 11.5 years of hourly points: just under 100,800 periods.
    const decade = { StartTime: '2014-07-07T00:00:00Z', EndTime: '2026-01-05T00:00:00Z' };
    const hourly = metric('m', { Period: 3600 });
    const yearly = 31_536_000;

    it('charges FILL at the finest period it keeps, not at its own Period', () => {
      const fills = Array.from({ length: 499 }, (_, i) => ({
        Id: `e${i + 1}`,
        Expression: 'FILL(m, 0)',
        Period: yearly,
      }));
      expect(refusal(body([hourly, ...fills], decade))).toMatch(
        /^MetricDataQueries\[\d+\]\.Expression: the queries up to this one hold up to \d+ points × terms/,
      );
    });

    it('charges an expression by its terms, so chains of big expressions are refused', () => {
      const terms = Array.from({ length: 128 }, () => 'e1').join('+');
      const chain = Array.from({ length: 498 }, (_, i) => ({
        Id: `e${i + 2}`,
        Expression: terms,
        Period: yearly,
      }));
      expect(
        refusal(body([hourly, { Id: 'e1', Expression: 'FILL(m, 0)', Period: yearly }, ...chain], decade)),
      ).toContain('MetricDataQueries[2].Expression: the queries up to this one hold up to');
    });

    it('lets a dashboard of metrics and a few expressions through', () => {
      const plan = planInsightsQuery(
        body(
          [
            ...Array.from({ length: 19 }, (_, i) => metric(`m${i}`, { Period: 3600 })),
            { Id: 'rate', Expression: 'FILL(m1, 0) / FILL(m0, 0) * 100' },
          ],
          { ...decade, StartTime: '2021-01-05T00:00:00Z' },
        ),
        caller,
      );
      expect(plan.queries).toHaveLength(20);
    });
  });

  it('lets expressions refer to expressions', () => {
    const plan = planInsightsQuery(
      body([
        { Id: 'c', Expression: 'b * 2' },
        { Id: 'b', Expression: 'a + 1' },
        metric('a', { Period: 300 }),
      ]),
      caller,
    );
    expect(plan.queries.map((q) => q.id)).toEqual(['a', 'b', 'c']);
    expect(plan.queries.map((q) => q.periodSeconds)).toEqual([300, 300, 300]);
  });
});
