import { InvalidRequestError } from '@notify/util';
import { type InsightQueryBody, type InsightsRequestBody, planInsightsQuery } from './insight-query';
import {
  type ComputedResult,
  decodeNextToken,
  evaluateInsights,
  insightsRequestDigest,
  MAX_MESSAGES_PER_RESULT,
  pageInsightResults,
  plannedSeriesRequests,
  renderLabel,
} from './insight-results';
import type { SeriesPoint, SeriesRequest } from './metric-source';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const T0 = Date.parse('2026-01-05T11:00:00.000Z');
const MIN = 60_000;

const metric = (id: string, name: string, over: Partial<InsightQueryBody> = {}): InsightQueryBody => ({
  Id: id,
  MetricStat: { Metric: { Namespace: 'Notifications', MetricName: name }, Period: 60, Stat: 'Sum' },
  ...over,
});
const body = (queries: InsightQueryBody[], over: Partial<InsightsRequestBody> = {}): InsightsRequestBody => ({
  StartTime: '2026-01-05T11:00:00Z',
  EndTime: '2026-01-05T11:05:00Z',
  MetricDataQueries: queries,
  ...over,
});
/** Sent: 10, 20, 30 in minutes 0–2; Failed: 1 and 5 in minutes 0 and 1. */
const STORE: Record<string, SeriesPoint[]> = {
  Sent: [0, 1, 2].map((m) => ({ timestampMs: T0 + m * MIN, value: (m + 1) * 10 })),
  Failed: [
    { timestampMs: T0, value: 1 },
    { timestampMs: T0 + MIN, value: 5 },
  ],
};
const compute = (request: InsightsRequestBody) => {
  const asked: SeriesRequest[] = [];
  const results = evaluateInsights(planInsightsQuery(request, { nowMs: NOW, accountId: 'acc-1' }), (r) => {
    asked.push(r);
    return STORE[r.metric] ?? [];
  });
  return { results, asked };
};
const iso = (minute: number) => new Date(T0 + minute * MIN).toISOString();

describe('evaluateInsights', () => {
  it('answers the returned queries, expressions over metrics left out of the answer', () => {
    const { results, asked } = compute(
      body([
        { Id: 'rate', Expression: '100 * failed / sent' },
        { ...metric('sent', 'Sent'), ReturnData: false },
        { ...metric('failed', 'Failed'), ReturnData: false },
        metric('all', 'Sent', { Label: 'sent in all' }),
        { ...metric('unused', 'Opened'), ReturnData: false },
      ]),
    );
    expect(asked.map((r) => r.metric)).toEqual(['Failed', 'Sent', 'Sent']);
    expect(results).toEqual([
      {
        id: 'rate',
        label: '100 * failed / sent',
        points: [
          [T0, 10],
          [T0 + MIN, 25],
        ],
        forbidden: false,
        messages: [],
      },
      {
        id: 'all',
        label: 'sent in all',
        points: STORE.Sent?.map((p) => [p.timestampMs, p.value]),
        forbidden: false,
        messages: [],
      },
    ]);
  });

  it('asks nothing for another account or too fine a period, and says why (expressions too)', () => {
    const forbidden = compute(
      body([
        { ...metric('m', 'Sent'), AccountId: 'acc-2' },
        { Id: 'e', Expression: 'm * 2' },
      ]),
    );
    expect(forbidden.asked).toEqual([]);
    expect(forbidden.results).toMatchObject([
      { id: 'm', forbidden: true, points: [], messages: [{ Code: 'Forbidden' }] },
      { id: 'e', forbidden: false, points: [], messages: [{ Code: 'Forbidden' }] },
    ]);
    const old = compute(
      body([metric('m', 'Sent'), { Id: 'e', Expression: 'm * 2' }], {
        StartTime: '2025-12-01T00:00:00Z',
        EndTime: '2025-12-01T01:00:00Z',
      }),
    );
    expect(old.asked).toEqual([]);
    expect(old.results.map((r) => [r.points, r.messages.map((m) => m.Code)])).toEqual([
      [[], ['PeriodTooFine']],
      [[], ['PeriodTooFine']],
    ]);
  });
});

describe('evaluateInsights, bounded', () => {
  const day = { StartTime: '2026-01-04T12:00:00Z', EndTime: '2026-01-05T12:00:00Z' };

  it('gives a query without data its own period, so FILL over it fills no finer', () => {
    const { results } = compute(
      body(
        [
          { ...metric('m', 'Sent', { AccountId: 'acc-2' }), ReturnData: false },
          { Id: 'e', Expression: 'FILL(m, 0)', Period: 3600 },
        ],
        day,
      ),
    );
    expect(results[0]?.points).toHaveLength(24);
  });

  it('says each rule once however many queries break it, at most MAX_MESSAGES_PER_RESULT', () => {
    const periods = [1, 5, 10, 20, 30];
    const { results } = compute(
      body(
        [
          ...periods.map((Period, i) => ({
            ...metric(`m${i}`, 'Sent', { ReturnData: false }),
            MetricStat: { ...metric('x', 'Sent').MetricStat, Period },
          })),
          { Id: 'e', Expression: periods.map((_, i) => `m${i}`).join(' + '), Period: 60 },
        ],
        { StartTime: '2026-01-05T06:00:00Z', EndTime: '2026-01-05T07:00:00Z' },
      ),
    );
    expect(results[0]?.messages.map((m) => m.Code)).toEqual(['PeriodTooFine']);
    expect(MAX_MESSAGES_PER_RESULT).toBe(10);
  });

  it('answers InternalError where the store failed, for the metrics and the expressions using them', () => {
    const plan = planInsightsQuery(
      body([metric('m', 'Sent'), { Id: 'e', Expression: 'm * 2' }, { Id: 'n', Expression: '1' }]),
      { nowMs: NOW, accountId: 'acc-1' },
    );
    const results = evaluateInsights(plan, () => undefined);
    expect(results.map((r) => [r.id, r.failed, r.messages.map((m) => m.Code)])).toEqual([
      ['m', true, ['InternalError']],
      ['e', true, ['InternalError']],
      ['n', undefined, []],
    ]);
    const page = pageInsightResults(results, {
      scanBy: 'TimestampAscending',
      maxDatapoints: 100,
      digest: 'd',
    });
    expect(page.map((r) => [r.StatusCode, r.Values.length])).toEqual([
      ['InternalError', 0],
      ['InternalError', 0],
      ['Complete', 5],
    ]);
  });
});

describe('plannedSeriesRequests', () => {
  it('asks each needed series once, and nothing for unused, forbidden or too-fine queries', () => {
    const plan = (queries: InsightQueryBody[], over: Partial<InsightsRequestBody> = {}) =>
      planInsightsQuery(body(queries, over), { nowMs: NOW, accountId: 'acc-1' });
    const requests = plannedSeriesRequests(
      plan([
        metric('a', 'Sent'),
        metric('b', 'Sent', { Label: 'the same series' }),
        { ...metric('c', 'Failed'), ReturnData: false },
        { ...metric('d', 'Opened'), ReturnData: false },
        { ...metric('x', 'Clicked'), AccountId: 'acc-2' },
        { Id: 'e', Expression: 'c / a' },
      ]),
    );
    expect(requests.map((r) => r.metric)).toEqual(['Sent', 'Failed']);
    expect(
      plannedSeriesRequests(
        plan([metric('a', 'Sent')], { StartTime: '2025-01-01T00:00:00Z', EndTime: '2025-01-01T01:00:00Z' }),
      ),
    ).toEqual([]);
  });
});

describe('renderLabel', () => {
  const points = [
    [T0, 2],
    [T0 + MIN, 4.12345],
  ] as const;
  it('fills the dynamic parts from the whole result, times at the Timezone offset', () => {
    expect(renderLabel('${SUM} sum, ${AVG} avg, ${MIN}–${MAX}, ${FIRST}→${LAST}', points, 0)).toBe(
      '6.123 sum, 3.062 avg, 2–4.123, 2→4.123',
    );
    expect(renderLabel('from ${FIRST_TIME} to ${LAST_TIME}', points, -330)).toBe(
      'from 2026-01-05T05:30:00-05:30 to 2026-01-05T05:31:00-05:30',
    );
    expect(renderLabel('${NOPE} ${SUM}', points, 60)).toBe('${NOPE} 6.123');
    expect(renderLabel('${SUM}', [], 0)).toBe('${SUM}');
    const many = Array.from({ length: 500_000 }, (_, i) => [i * 1000, i % 7] as const);
    expect(renderLabel('${MIN} ${MAX}', many, 0)).toBe('0 6');
  });
});

describe('pageInsightResults', () => {
  const result = (id: string, minutes: number[], over: Partial<ComputedResult> = {}): ComputedResult => ({
    id,
    label: id,
    points: minutes.map((m) => [T0 + m * MIN, m]),
    forbidden: false,
    messages: [],
    ...over,
  });
  const computed = [
    result('a', [0, 1, 2]),
    result('f', [], { forbidden: true, messages: [{ Code: 'Forbidden', Value: 'x' }] }),
    result('b', [0, 1]),
  ];
  const request = body([metric('a', 'Sent')]);
  const digest = insightsRequestDigest(request, 'acc-1');
  const token = (page: ReturnType<typeof pageInsightResults>) =>
    page.flatMap((r) => r.Messages.filter((m) => m.Code === 'NextToken').map((m) => m.Value))[0];

  it('orders points newest first by default, oldest first on request, ISO 8601 timestamps', () => {
    const [a] = pageInsightResults(computed, { scanBy: 'TimestampDescending', maxDatapoints: 100, digest });
    expect(a).toEqual({
      Id: 'a',
      Label: 'a',
      Timestamps: [iso(2), iso(1), iso(0)],
      Values: [2, 1, 0],
      StatusCode: 'Complete',
      Messages: [],
    });
    expect(new Date(a?.Timestamps[0] as string).getTime()).toBe(T0 + 2 * MIN);
    const [ascending] = pageInsightResults(computed, {
      scanBy: 'TimestampAscending',
      maxDatapoints: 100,
      digest,
    });
    expect(ascending?.Values).toEqual([0, 1, 2]);
  });

  it('caps the points of the whole answer and continues exactly where it stopped', () => {
    for (const scanBy of ['TimestampDescending', 'TimestampAscending'] as const) {
      const seen: Record<string, number[]> = { a: [], f: [], b: [] };
      let cursor: ReturnType<typeof decodeNextToken> | undefined;
      let pages = 0;
      do {
        const page = pageInsightResults(computed, {
          scanBy,
          maxDatapoints: 2,
          digest,
          ...(cursor ? { cursor } : {}),
        });
        expect(page.map((r) => r.Id)).toEqual(['a', 'f', 'b']);
        expect(page.reduce((n, r) => n + r.Values.length, 0)).toBeLessThanOrEqual(2);
        expect(page[1]).toMatchObject({ StatusCode: 'Forbidden', Values: [] });
        for (const r of page) seen[r.Id]?.push(...r.Values);
        const next = token(page);
        // Every result with points still to come says so, with the one token.
        for (const r of page)
          if (r.StatusCode === 'PartialData')
            expect(r.Messages).toContainEqual({ Code: 'NextToken', Value: next });
        cursor = next === undefined ? undefined : decodeNextToken(next, digest, computed.length);
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      const order = scanBy === 'TimestampAscending' ? [0, 1, 2] : [2, 1, 0];
      expect(seen).toEqual({ a: order, f: [], b: order.filter((m) => m < 2) });
    }
  });

  it('marks the results a page ends in or before as PartialData', () => {
    const page = pageInsightResults(computed, { scanBy: 'TimestampAscending', maxDatapoints: 3, digest });
    expect(page.map((r) => [r.Id, r.StatusCode, r.Values])).toEqual([
      ['a', 'Complete', [0, 1, 2]],
      ['f', 'Forbidden', []],
      ['b', 'PartialData', []],
    ]);
    const rest = pageInsightResults(computed, {
      scanBy: 'TimestampAscending',
      maxDatapoints: 3,
      digest,
      cursor: decodeNextToken(token(page) as string, digest, 3),
    });
    expect(rest.map((r) => [r.Id, r.StatusCode, r.Values])).toEqual([
      ['a', 'Complete', []],
      ['f', 'Forbidden', []],
      ['b', 'Complete', [0, 1]],
    ]);
  });

  it('refuses a token of another body, another account, or one that does not decode', () => {
    const page = pageInsightResults(computed, { scanBy: 'TimestampAscending', maxDatapoints: 1, digest });
    const next = token(page) as string;
    expect(decodeNextToken(next, digest, 3)).toEqual({ r: 0, t: T0 });
    // The same body with another NextToken is the same request.
    expect(insightsRequestDigest({ ...request, NextToken: next }, 'acc-1')).toBe(digest);
    const others = [
      insightsRequestDigest({ ...request, EndTime: '2026-01-05T11:06:00Z' }, 'acc-1'),
      insightsRequestDigest(request, 'acc-2'),
    ];
    for (const other of others)
      expect(() => decodeNextToken(next, other, 3)).toThrow('NextToken: not a token');
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const bad of [
      'garbage',
      forged({ d: digest, r: 3 }),
      forged({ d: digest, r: 0, t: 'x' }),
      forged(null),
    ])
      expect(() => decodeNextToken(bad, digest, 3)).toThrow(InvalidRequestError);
  });
});
