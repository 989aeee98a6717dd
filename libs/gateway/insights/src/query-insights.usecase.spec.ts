import {
  type InsightQueryBody,
  type InsightResult,
  type InsightsRequestBody,
  MetricQueryLimitError,
  type MetricSource,
} from '@notify/domain';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { aMetricEvent, anEnvironment, FakeClock, FakeMetricSource, tempDir } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { insightsRequestSchema } from './insights.schemas';
import { QueryInsightsUseCase } from './query-insights.usecase';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const T0 = Date.parse('2026-01-05T11:00:00.000Z');
const MIN = 60_000;

const sum = (
  id: string,
  metric: string,
  dimensions: Record<string, string> = {},
  over: Partial<InsightQueryBody> = {},
) => ({
  Id: id,
  MetricStat: {
    Metric: {
      Namespace: 'Notifications',
      MetricName: metric,
      Dimensions: Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value })),
    },
    Period: 3600,
    Stat: 'Sum',
  },
  ...over,
});
const body = (queries: InsightQueryBody[], over: Partial<InsightsRequestBody> = {}): InsightsRequestBody =>
  insightsRequestSchema.parse({
    StartTime: '2026-01-05T11:00:00Z',
    EndTime: '2026-01-05T12:00:00Z',
    MetricDataQueries: queries,
    ...over,
  });
const values = (results: InsightResult[]) => Object.fromEntries(results.map((r) => [r.Id, r.Values]));

describe('QueryInsightsUseCase', () => {
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let source: FakeMetricSource;
  let useCase: QueryInsightsUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-insights-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    const accounts = new AccountRepository(store);
    await accounts.createAccount({ accountId: 'acc-1', name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' });
    await accounts.createEnvironment(anEnvironment({ envId: 'env-1' }), 10);
    await accounts.createEnvironment(anEnvironment({ envId: 'env-2', title: 'Staging' }), 10);
    source = new FakeMetricSource().add(
      // env-1: 4 emails sent (one failed), 2 SMS sent and both failed; env-2: 1 email; acc-2: 5 emails.
      ...[0, 1, 2, 3].map((m) => aMetricEvent({ timeMs: T0 + m * MIN, latencyMs: 100 * (m + 1) })),
      aMetricEvent({ metric: 'Failed', timeMs: T0 + 5 * MIN }),
      ...[0, 1].map((m) => aMetricEvent({ channel: 'SMS', timeMs: T0 + m * MIN })),
      ...[0, 1].map((m) => aMetricEvent({ channel: 'SMS', metric: 'Failed', timeMs: T0 + m * MIN })),
      aMetricEvent({ envId: 'env-2', timeMs: T0 }),
      ...[0, 1, 2, 3, 4].map(() => aMetricEvent({ accountId: 'acc-2', envId: 'env-9', timeMs: T0 })),
    );
    useCase = new QueryInsightsUseCase(source, accounts, new FakeClock(NOW));
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  const key = { accountId: 'acc-1', envId: 'env-1' };

  it('answers InternalError (not a 500) for the results that need the store when it fails', async () => {
    const failing = new QueryInsightsUseCase(
      {
        series: () => Promise.reject(new Error('Code: 241. DB::Exception: Memory limit exceeded')),
      },
      new AccountRepository(store),
      new FakeClock(NOW),
    );
    const results = await failing.execute(
      key,
      body([sum('sent', 'Sent'), { Id: 'twice', Expression: 'sent * 2' }, { Id: 'one', Expression: '1' }]),
    );
    expect(results.map((r) => [r.Id, r.StatusCode, r.Values, r.Messages.map((m) => m.Code)])).toEqual([
      ['sent', 'InternalError', [], ['InternalError']],
      ['twice', 'InternalError', [], ['InternalError']],
      ['one', 'Complete', [1], []],
    ]);
  });

  it("sums a key's environment per channel and gives the failure rate of an expression", async () => {
    const results = await useCase.execute(
      key,
      body([
        sum('email', 'Sent', { Channel: 'EMAIL' }),
        sum('sms', 'Sent', { Channel: 'SMS' }),
        { ...sum('sent', 'Sent'), ReturnData: false },
        { ...sum('failed', 'Failed'), ReturnData: false },
        { Id: 'rate', Expression: '100 * failed / sent' },
      ]),
    );
    expect(results).toEqual([
      {
        Id: 'email',
        Label: 'Sent EMAIL',
        Timestamps: [new Date(T0).toISOString()],
        Values: [4],
        StatusCode: 'Complete',
        Messages: [],
      },
      expect.objectContaining({ Id: 'sms', Label: 'Sent SMS', Values: [2] }),
      expect.objectContaining({ Id: 'rate', Label: '100 * failed / sent', Values: [50] }),
    ]);
    expect(source.asked).toEqual([
      { scope: { accountId: 'acc-1', envIds: ['env-1'] }, requests: expect.any(Array) },
    ]);
    expect(source.asked[0]?.requests).toHaveLength(4);
  });

  it('asks the store for each series once however many queries name it', async () => {
    await useCase.execute(
      key,
      body([sum('a', 'Sent'), sum('b', 'Sent', {}, { Label: 'again' }), { Id: 'c', Expression: 'a + b' }]),
    );
    expect(source.asked[0]?.requests).toHaveLength(1);
  });

  it("reads a member's whole account, narrowed by an EnvId dimension or ?envId=, never another account's", async () => {
    const query = body([
      sum('all', 'Sent', { Channel: 'EMAIL' }),
      sum('two', 'Sent', { EnvId: 'env-2' }),
      sum('other', 'Sent', { EnvId: 'env-9' }),
    ]);
    expect(values(await useCase.execute({ accountId: 'acc-1' }, query))).toEqual({
      all: [5],
      two: [1],
      other: [],
    });
    expect(values(await useCase.execute({ accountId: 'acc-1', envId: 'env-2' }, query))).toEqual({
      all: [1],
      two: [1],
      other: [],
    });
    // A key reads its own environment only, whatever EnvId says.
    expect(values(await useCase.execute(key, query))).toEqual({ all: [4], two: [], other: [] });
    expect(source.asked.flatMap((a) => a.requests).some((r) => r.filters.EnvId === 'env-9')).toBe(false);
  });

  it('asks nothing for an account without environments', async () => {
    const [result] = await useCase.execute({ accountId: 'acc-2' }, body([sum('m', 'Sent')]));
    expect(result).toMatchObject({ Id: 'm', StatusCode: 'Complete', Values: [] });
    expect(source.asked).toEqual([]);
  });

  it('answers Forbidden for another AccountId, and nothing from it', async () => {
    const [result] = await useCase.execute(key, body([sum('m', 'Sent', {}, { AccountId: 'acc-2' })]));
    expect(result).toMatchObject({ Id: 'm', StatusCode: 'Forbidden', Values: [], Timestamps: [] });
    expect(source.asked).toEqual([]);
  });

  it('answers InternalError with the reason when the store cannot answer within its limits', async () => {
    const refusing: MetricSource = {
      series: () => Promise.reject(new MetricQueryLimitError('memory')),
    };
    const limited = new QueryInsightsUseCase(refusing, new AccountRepository(store), new FakeClock(NOW));
    const results = await limited.execute(
      key,
      body([sum('m', 'Sent'), sum('other', 'Sent', {}, { AccountId: 'acc-2' })]),
    );
    expect(results.map((r) => [r.Id, r.StatusCode, r.Values])).toEqual([
      ['m', 'InternalError', []],
      ['other', 'Forbidden', []],
    ]);
    expect(results[0]?.Messages).toEqual([
      { Code: 'InternalError', Value: new MetricQueryLimitError('memory').message },
    ]);
  });

  it('answers latency statistics of latency metrics', async () => {
    const latency = (Stat: string) => ({
      Id: Stat.replace('.', '_').toLowerCase(),
      MetricStat: { Metric: { Namespace: 'Notifications', MetricName: 'Sent' }, Period: 300, Stat },
    });
    const results = await useCase.execute(
      key,
      body([latency('Average'), latency('Maximum'), latency('p50'), latency('SampleCount')]),
    );
    expect(values(results)).toEqual({ average: [250], maximum: [400], p50: [200], samplecount: [6] });
  });

  it('pages with MaxDatapoints and NextToken, and refuses the token for another body', async () => {
    const request = body(
      [
        sum(
          'm',
          'Sent',
          {},
          {
            MetricStat: {
              Metric: { Namespace: 'Notifications', MetricName: 'Sent' },
              Period: 60,
              Stat: 'Sum',
            },
          },
        ),
      ],
      {
        MaxDatapoints: 3,
      },
    );
    const first = await useCase.execute(key, request);
    // Per minute: 2 (email and SMS), 2, 1, 1; newest first.
    expect(first[0]).toMatchObject({ StatusCode: 'PartialData', Values: [1, 1, 2] });
    expect(first[0]?.Timestamps).toEqual([3, 2, 1].map((m) => new Date(T0 + m * MIN).toISOString()));
    const token = first[0]?.Messages.find((m) => m.Code === 'NextToken')?.Value as string;
    const second = await useCase.execute(key, { ...request, NextToken: token });
    expect(second[0]).toMatchObject({
      StatusCode: 'Complete',
      Timestamps: [new Date(T0).toISOString()],
      Values: [2],
      Messages: [],
    });
    await expect(
      useCase.execute(key, { ...request, MaxDatapoints: 4, NextToken: token }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('refuses a broken rule before asking the store', async () => {
    await expect(useCase.execute(key, body([sum('m', 'Sent', {}, { Id: 'Bad' })]))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('MetricDataQueries[0].Id'),
    });
    expect(source.asked).toEqual([]);
  });
});

describe('insightsRequestSchema', () => {
  const base = { StartTime: 'a', EndTime: 'b', MetricDataQueries: [] };
  it('bounds sizes: 500 queries, 30 dimensions, 1,024-character expressions', () => {
    expect(
      insightsRequestSchema.safeParse({ ...base, MetricDataQueries: Array.from({ length: 500 }, () => ({})) })
        .success,
    ).toBe(true);
    expect(
      insightsRequestSchema.safeParse({ ...base, MetricDataQueries: Array.from({ length: 501 }, () => ({})) })
        .success,
    ).toBe(false);
    const dimensions = (n: number) => ({
      ...base,
      MetricDataQueries: [
        {
          MetricStat: {
            Metric: { Dimensions: Array.from({ length: n }, () => ({ Name: 'EnvId', Value: 'x' })) },
          },
        },
      ],
    });
    expect(insightsRequestSchema.safeParse(dimensions(30)).success).toBe(true);
    const refused = insightsRequestSchema.safeParse(dimensions(31));
    expect(refused.error?.issues[0]?.path).toEqual([
      'MetricDataQueries',
      0,
      'MetricStat',
      'Metric',
      'Dimensions',
    ]);
    expect(
      insightsRequestSchema.safeParse({ ...base, MetricDataQueries: [{ Expression: 'a'.repeat(1025) }] })
        .success,
    ).toBe(false);
    expect(insightsRequestSchema.safeParse({ ...base, MaxDatapoints: '10' }).success).toBe(false);
  });
});
