import { aMemberToken, eventually, uniqueName } from '@notify/testing';
import {
  ChannelsEnum,
  CreateKeyRequestKeyTypeEnum,
  type GetMetricsResponseInner,
  type IngishtsPostRequest,
  IngishtsPostRequestScanByEnum,
  type IngishtsPostRequestMetricDataQueriesInner,
  type Pingram,
} from 'pingram';
import {
  type AllInOne,
  bootstrapKey,
  callAs,
  failedResponse,
  pingramIn,
  startAllInOne,
  statusAndCode,
} from './all-in-one';
import { awaitLog } from './logs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * `POST /insights` through the pingram client (InsightsApi.queryInsights), over a known mix of
 * sends in the default environment (A): emails delivered by the SMTP catcher, SMS the Twilio peer
 * delivers or reports undelivered (30005), and an email ignored as a duplicate; environment B (same
 * account) sends one email; another account (Oscar's) sends nothing here.
 */
describe('insights (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let keyA: string;
  let keyB: string;
  let envA: string;
  let envB: string;
  /** When the suite's sends began. */
  let sendsFrom: number;
  const owner = aMemberToken({ email: 'owner@notify.localhost' });
  const oscar = aMemberToken({ email: 'oscar@other.example' });
  const client = (as: string, envId?: string): Pingram => pingramIn(base, as, envId);

  const metric = (
    Id: string,
    MetricName: string,
    dimensions: Record<string, string> = {},
    over: Partial<NonNullable<IngishtsPostRequestMetricDataQueriesInner['MetricStat']>> = {},
  ): IngishtsPostRequestMetricDataQueriesInner => ({
    Id,
    MetricStat: {
      Metric: {
        Namespace: 'Notifications',
        MetricName,
        Dimensions: Object.entries(dimensions).map(([Name, Value]) => ({ Name, Value })),
      },
      Period: 60,
      Stat: 'Sum',
      ...over,
    },
  });
  /** The last hour up to a minute ahead, so every send of this suite is inside. */
  const recent = (
    queries: IngishtsPostRequestMetricDataQueriesInner[],
    over: Partial<IngishtsPostRequest> = {},
  ) => ({
    StartTime: new Date(Date.now() - HOUR).toISOString(),
    EndTime: new Date(Date.now() + 2 * 60_000).toISOString(),
    MetricDataQueries: queries,
    ...over,
  });
  const total = (result: GetMetricsResponseInner | undefined) =>
    (result?.Values ?? []).reduce((a, b) => a + b, 0);
  const totals = (results: GetMetricsResponseInner[]) =>
    Object.fromEntries(results.map((r) => [r.Id as string, total(r)]));
  const refusal = async (body: unknown) => {
    const response = await callAs(base, '/insights', keyA, { method: 'POST', body: JSON.stringify(body) });
    const answer = (await response.json()) as {
      trackingId: string;
      error: { code: string; message: string };
    };
    return { status: response.status, code: answer.error?.code, message: answer.error?.message };
  };

  beforeAll(async () => {
    app = await startAllInOne('notify-insights-', {
      tenants: [
        {
          accountId: 'acct-other',
          name: 'Other',
          members: [
            { email: 'oscar@other.example', role: 'owner' },
            { email: 'mo@other.example', role: 'member' },
          ],
        },
      ],
    });
    base = app.baseUrl;
    keyA = await bootstrapKey(app);
    envA = (await client(keyA).environments.listEnvironments())[0]?.clientId ?? '';
    envB = (await client(owner).environments.createEnvironment({ title: 'Staging' })).clientId;
    keyB = (
      await client(owner).keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.SECRET,
        name: 'insights',
        environmentId: envB,
      })
    ).key;

    const a = client(keyA);
    sendsFrom = Date.now();
    const email = (userId: string, subject: string, type = uniqueName('welcome')) =>
      a.send({
        type,
        to: { id: userId, email: `${userId}@example.com` },
        email: { subject, html: '<p>hi</p>' },
      });
    const sms = (number: string) =>
      a.send({
        type: uniqueName('code'),
        to: { id: uniqueName('sam'), number },
        forceChannels: [ChannelsEnum.SMS],
        sms: { message: 'your code' },
      });
    // Email: three delivered, plus a fourth whose duplicate is ignored.
    const delivered = await Promise.all([1, 2, 3].map((i) => email(uniqueName(`ann${i}`), 'Hello')));
    const dedup = uniqueName('dedup');
    await a.types.createNotificationType({ notificationId: dedup, title: 'dedup', channels: ['EMAIL'] });
    await a.types.updateNotificationType(dedup, { deduplication: { duration: 600 } });
    const first = await email('dora', 'Same', dedup);
    delivered.push(first);
    await Promise.all(
      delivered.map((s) => awaitLog(a, s.trackingId, (l) => l['email_delivered_at'] !== undefined)),
    );
    const duplicate = await email('dora', 'Same', dedup);
    await awaitLog(a, duplicate.trackingId, (l) => l['email_routing'] === 'DEDUPLICATED');
    // SMS: two delivered, two sent and then reported undelivered.
    const texts = await Promise.all(
      ['+14155552681', '+14155552682', '+15005550010', '+15005550010'].map(sms),
    );
    await Promise.all(
      texts.map((s) =>
        awaitLog(
          a,
          s.trackingId,
          (l) => l['sms_delivered_at'] !== undefined || l['sms_failed_code'] !== undefined,
        ),
      ),
    );
    // Environment B: one email.
    const other = await client(keyB).send({
      type: 'welcome',
      to: { id: 'bea', email: 'bea@example.com' },
      email: { subject: 'B', html: '<p>b</p>' },
    });
    await awaitLog(client(keyB), other.trackingId, (l) => l['email_delivered_at'] !== undefined);
  }, 240_000);

  afterAll(() => app?.stop(), 60_000);

  /** Queries through the pingram client until `ready` holds (the rollups follow the log closely). */
  const settled = (
    as: Pingram,
    body: IngishtsPostRequest,
    ready: (results: GetMetricsResponseInner[]) => boolean,
  ) =>
    eventually(async () => {
      const results = await as.insights.queryInsights(body);
      if (!ready(results)) throw new Error(`not settled: ${JSON.stringify(results)}`);
      return results;
    }, 30_000);

  it('sums Sent and Failed per channel to the mix, and an expression gives the failure rate', async () => {
    const results = await settled(
      client(keyA),
      recent([
        metric('sent_email', 'Sent', { Channel: 'EMAIL' }),
        metric('failed_email', 'Failed', { Channel: 'EMAIL' }),
        metric('delivered_email', 'Delivered', { Channel: 'EMAIL' }),
        metric('ignored_email', 'Ignored', { Channel: 'EMAIL' }),
        { ...metric('sent', 'Sent', { Channel: 'SMS' }), ReturnData: false },
        { ...metric('failed', 'Failed', { Channel: 'SMS' }), ReturnData: false },
        { Id: 'rate', Expression: '100 * SUM(failed) / SUM(sent)', Label: 'SMS failure rate' },
      ]),
      (r) => totals(r)['sent_email'] === 4 && r.find((x) => x.Id === 'rate')?.Values?.length !== 0,
    );
    expect(totals(results)).toEqual({
      sent_email: 4,
      failed_email: 0,
      delivered_email: 4,
      ignored_email: 1,
      rate: expect.any(Number),
    });
    const rate = results.find((r) => r.Id === 'rate');
    expect(rate?.Label).toBe('SMS failure rate');
    expect(new Set(rate?.Values)).toEqual(new Set([50]));
    for (const r of results) {
      expect(r.StatusCode).toBe('Complete');
      expect(r.Timestamps?.length).toBe(r.Values?.length);
      // ISO 8601 text, which Date reads (pingram types them as Date and passes them through).
      for (const t of r.Timestamps ?? []) expect(Number.isNaN(new Date(t).getTime())).toBe(false);
    }
    expect(results.find((r) => r.Id === 'sent_email')?.Label).toBe('Sent EMAIL');
  });

  it('gives the failure rate per period with 100 * failed / sent', async () => {
    // One period holding every send of the suite: the first of these lengths whose period
    // boundaries (aligned to the epoch) do not fall between the first send and now.
    const end = Date.now() + 2 * 60_000;
    const period = [86_400, 18_000, 25_200].find(
      (p) => Math.floor(sendsFrom / 1000 / p) === Math.floor(end / 1000 / p),
    );
    const [rate] = await client(keyA).insights.queryInsights({
      StartTime: new Date(sendsFrom).toISOString(),
      EndTime: new Date(end).toISOString(),
      MetricDataQueries: [
        { ...metric('sent', 'Sent', { Channel: 'SMS' }, { Period: period }), ReturnData: false },
        { ...metric('failed', 'Failed', { Channel: 'SMS' }, { Period: period }), ReturnData: false },
        { Id: 'rate', Expression: '100 * failed / sent' },
      ],
    });
    expect(rate).toMatchObject({
      Id: 'rate',
      Label: '100 * failed / sent',
      Values: [50],
      StatusCode: 'Complete',
    });
  });

  it('answers per-minute series of SMS sends and failures, newest first by default', async () => {
    const [sent, failed] = await settled(
      client(keyA),
      recent([metric('sent', 'Sent', { Channel: 'SMS' }), metric('failed', 'Failed', { Channel: 'SMS' })]),
      (r) => total(r[0]) === 4 && total(r[1]) === 2,
    );
    const times = (sent?.Timestamps ?? []).map((t) => new Date(t).getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(total(failed)).toBe(2);
  });

  it('gives delivery latency statistics of Sent and Delivered', async () => {
    const latency = (Stat: string) =>
      metric(Stat.toLowerCase(), 'Delivered', { Channel: 'EMAIL' }, { Stat, Period: 3600 });
    const results = await client(keyA).insights.queryInsights(
      recent([latency('Maximum'), latency('Minimum'), latency('p99'), latency('SampleCount')]),
    );
    const one = (id: string) => results.find((r) => r.Id === id)?.Values ?? [];
    expect(total(results.find((r) => r.Id === 'samplecount'))).toBe(4);
    expect(Math.max(...one('maximum'))).toBeGreaterThan(0);
    expect(Math.min(...one('minimum'))).toBeLessThanOrEqual(Math.max(...one('maximum')));
    expect(one('p99').length).toBeGreaterThan(0);
  });

  describe('periods by the age of StartTime', () => {
    const sentEmail = (period: number, startAgoMs: number) =>
      client(keyA).insights.queryInsights({
        StartTime: new Date(Date.now() - startAgoMs).toISOString(),
        EndTime: new Date(Date.now() + 2 * 60_000).toISOString(),
        MetricDataQueries: [metric('m', 'Sent', { Channel: 'EMAIL' }, { Period: period })],
      });
    const expectServed = async (period: number, startAgoMs: number) => {
      const [result] = await sentEmail(period, startAgoMs);
      expect(result).toMatchObject({ StatusCode: 'Complete', Messages: [] });
      expect(total(result)).toBe(4);
    };
    const expectEmpty = async (period: number, startAgoMs: number, multiple: number) => {
      const [result] = await sentEmail(period, startAgoMs);
      expect(result).toMatchObject({ StatusCode: 'Complete', Values: [], Timestamps: [] });
      expect(result?.Messages).toEqual([
        { Code: 'PeriodTooFine', Value: expect.stringContaining(`multiple of ${multiple} seconds`) },
      ]);
    };

    it('within the last 3 hours: high-resolution periods (1 s)', async () => {
      await expectServed(1, HOUR);
      await expectServed(30, 2 * HOUR);
    });

    it('more than 3 hours and at most 15 days ago: multiples of 60', async () => {
      await expectEmpty(30, 4 * HOUR, 60);
      await expectServed(60, 4 * HOUR);
      await expectServed(120, 14 * DAY);
    });

    it('more than 15 and at most 63 days ago: multiples of 300', async () => {
      await expectEmpty(60, 16 * DAY, 300);
      await expectServed(300, 16 * DAY);
      await expectServed(900, 62 * DAY);
    });

    it('more than 63 days ago: multiples of 3600', async () => {
      await expectEmpty(300, 64 * DAY, 3600);
      await expectServed(3600, 64 * DAY);
    });
  });

  describe('validation: 400 naming the field', () => {
    const query = metric('m', 'Sent');
    const stat = query.MetricStat as Record<string, unknown>;
    const withStat = (change: Record<string, unknown>) =>
      recent([{ ...query, MetricStat: { ...stat, ...change } as never }]);
    const withMetric = (change: Record<string, unknown>) =>
      withStat({ Metric: { Namespace: 'Notifications', MetricName: 'Sent', ...change } });
    it.each<[string, unknown, string]>([
      ['a malformed Id', recent([{ ...query, Id: 'Mine' }]), 'MetricDataQueries[0].Id'],
      ['an Id twice', recent([query, query]), 'MetricDataQueries[1].Id'],
      [
        'more than 500 queries',
        recent(Array.from({ length: 501 }, (_, i) => metric(`m${i}`, 'Sent'))),
        'MetricDataQueries',
      ],
      ['both Expression and MetricStat', recent([{ ...query, Expression: '1' }]), 'MetricDataQueries[0]'],
      [
        'the namespace',
        withMetric({ Namespace: 'AWS/SES' }),
        'MetricDataQueries[0].MetricStat.Metric.Namespace',
      ],
      [
        'a metric name',
        withMetric({ MetricName: 'Bounced' }),
        'MetricDataQueries[0].MetricStat.Metric.MetricName',
      ],
      [
        'more than 30 dimensions',
        withMetric({ Dimensions: Array.from({ length: 31 }, () => ({ Name: 'EnvId', Value: 'x' })) }),
        'MetricDataQueries.0.MetricStat.Metric.Dimensions',
      ],
      [
        'a dimension name that is not ASCII',
        withMetric({ Dimensions: [{ Name: 'Canal✉', Value: 'EMAIL' }] }),
        'MetricDataQueries[0].MetricStat.Metric.Dimensions[0].Name',
      ],
      [
        'a dimension value with a control character',
        withMetric({ Dimensions: [{ Name: 'NotificationId', Value: 'a\u0007' }] }),
        'MetricDataQueries[0].MetricStat.Metric.Dimensions[0].Value',
      ],
      [
        'an unknown channel',
        withMetric({ Dimensions: [{ Name: 'Channel', Value: 'FAX' }] }),
        'MetricDataQueries[0].MetricStat.Metric.Dimensions[0].Value',
      ],
      ['a unit', withStat({ Unit: 'Hours' }), 'MetricDataQueries[0].MetricStat.Unit'],
      ['a statistic', withStat({ Stat: 'Median' }), 'MetricDataQueries[0].MetricStat.Stat'],
      [
        'a latency statistic of a count',
        withStat({ Metric: { Namespace: 'Notifications', MetricName: 'Failed' }, Stat: 'p99' }),
        'MetricDataQueries[0].MetricStat.Stat',
      ],
      ['a period', withStat({ Period: 45 }), 'MetricDataQueries[0].MetricStat.Period'],
      ['StartTime', { ...recent([query]), StartTime: 'yesterday' }, 'StartTime'],
      ['EndTime before StartTime', { ...recent([query]), EndTime: '2020-01-01T00:00:00Z' }, 'StartTime'],
      ['ScanBy', recent([query], { ScanBy: 'Newest' as IngishtsPostRequestScanByEnum }), 'ScanBy'],
      ['MaxDatapoints', recent([query], { MaxDatapoints: 0 }), 'MaxDatapoints'],
      [
        'LabelOptions.Timezone',
        recent([query], { LabelOptions: { Timezone: 'Europe/Paris' } }),
        'LabelOptions.Timezone',
      ],
      [
        'an expression that does not parse',
        recent([query, { Id: 'e', Expression: 'm +' }]),
        'MetricDataQueries[1].Expression',
      ],
      [
        'an unknown id',
        recent([query, { Id: 'e', Expression: 'm / nope' }]),
        'MetricDataQueries[1].Expression',
      ],
      [
        'a cycle',
        recent([query, { Id: 'a', Expression: 'b + m' }, { Id: 'b', Expression: 'a * 2' }]),
        'MetricDataQueries[1].Expression',
      ],
      ['a NextToken of nothing', recent([query], { NextToken: 'bm90IGEgdG9rZW4' }), 'NextToken'],
    ])('refuses %s', async (name, body, field) => {
      const answer = await refusal(body);
      expect({ name, status: answer.status, code: answer.code }).toEqual({
        name,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(answer.message.startsWith(`${field}:`)).toBe(true);
    });

    it('answers the refusal to the pingram client as a ResponseError with the error body', async () => {
      const response = await failedResponse(
        client(keyA).insights.queryInsights(recent([{ ...query, Id: 'Bad' }])),
      );
      expect(await statusAndCode(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    });
  });

  describe('scope', () => {
    const sentEmail = recent([metric('m', 'Sent', { Channel: 'EMAIL' })]);

    it("shows a key its own environment only: B's key sees B's one email, and an EnvId of B narrows A's key to nothing", async () => {
      expect(total((await client(keyB).insights.queryInsights(sentEmail))[0])).toBe(1);
      const narrowed = await client(keyA).insights.queryInsights(
        recent([
          metric('b', 'Sent', { Channel: 'EMAIL', EnvId: envB }),
          metric('a', 'Sent', { Channel: 'EMAIL', EnvId: envA }),
        ]),
      );
      expect(totals(narrowed)).toEqual({ b: 0, a: 4 });
    });

    it("shows a member the account's environments, or the one named with ?envId=", async () => {
      expect(total((await client(owner).insights.queryInsights(sentEmail))[0])).toBe(5);
      expect(total((await client(owner, envB).insights.queryInsights(sentEmail))[0])).toBe(1);
      // An empty ?envId= names no environment: the whole account, as without it.
      expect(total((await client(owner, '').insights.queryInsights(sentEmail))[0])).toBe(5);
    });

    it("shows another account nothing of this one, and refuses its member this account's environment (404)", async () => {
      expect(total((await client(oscar).insights.queryInsights(sentEmail))[0])).toBe(0);
      const response = await failedResponse(client(oscar, envA).insights.queryInsights(sentEmail));
      expect(await statusAndCode(response)).toEqual({ status: 404, code: 'NOT_FOUND' });
    });

    it('lets every role read (a plain member too), and refuses a public key (403)', async () => {
      const plain = aMemberToken({ email: 'mo@other.example' });
      expect(await client(plain).insights.queryInsights(recent([metric('m', 'Sent')]))).toEqual([
        expect.objectContaining({ Id: 'm', StatusCode: 'Complete', Values: [] }),
      ]);
      const publicKey = await client(owner).keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.PUBLIC,
        name: 'browser',
        environmentId: envA,
      });
      const response = await failedResponse(
        client(publicKey.key).insights.queryInsights(recent([metric('m', 'Sent')])),
      );
      expect(await statusAndCode(response)).toEqual({ status: 403, code: 'FORBIDDEN' });
    });

    it('answers Forbidden for a query naming another AccountId', async () => {
      const [result] = await client(keyA).insights.queryInsights(
        recent([{ ...metric('m', 'Sent'), AccountId: 'acct-other' }]),
      );
      expect(result).toMatchObject({ StatusCode: 'Forbidden', Values: [] });
    });
  });

  it('pages with MaxDatapoints and NextToken, continuing exactly where it stopped', async () => {
    const body = recent([metric('m', 'Sent', {}, { Period: 1 })], {
      MaxDatapoints: 1,
      ScanBy: IngishtsPostRequestScanByEnum.TIMESTAMP_ASCENDING,
    });
    const seen: [string, number][] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const [result] = await client(keyA).insights.queryInsights(
        token === undefined ? body : { ...body, NextToken: token },
      );
      expect((result?.Values ?? []).length).toBeLessThanOrEqual(1);
      (result?.Timestamps ?? []).forEach((t, i) => seen.push([String(t), result?.Values?.[i] as number]));
      token = result?.Messages?.find((m) => m.Code === 'NextToken')?.Value;
      expect(result?.StatusCode).toBe(token === undefined ? 'Complete' : 'PartialData');
      pages++;
    } while (token !== undefined && pages < 50);
    // Every send of environment A (4 emails and 4 SMS), each second once, in order.
    expect(seen.reduce((sum, [, v]) => sum + v, 0)).toBe(8);
    expect(new Set(seen.map(([t]) => t)).size).toBe(seen.length);
    expect(seen.map(([t]) => t)).toEqual([...seen.map(([t]) => t)].sort());
    // A token is good for its own request only.
    const first = await client(keyA).insights.queryInsights(body);
    const next = first[0]?.Messages?.find((m) => m.Code === 'NextToken')?.Value as string;
    expect(await refusal({ ...body, MaxDatapoints: 2, NextToken: next })).toMatchObject({
      status: 400,
      message: expect.stringContaining('NextToken'),
    });
  });
});
