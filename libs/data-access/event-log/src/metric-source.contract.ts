import type { ClickHouseClient } from '@clickhouse/client';
import {
  CHANNELS,
  type DeliveryEvent,
  type InsightMetric,
  type InsightStatistic,
  type LogFields,
  logPrefix,
  MetricQueryLimitError,
  type MetricScope,
  type SeriesRequest,
} from '@notify/domain';
import { aDeliveryEvent, tempDir, uniqueName } from '@notify/testing';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ClickHouseEventLog,
  type ClickHouseEventLogOptions,
  openClickHouseClient,
} from './clickhouse/clickhouse.event-log';
import { ClickHouseMetricSource } from './clickhouse/clickhouse.metric-source';
import { migrate, MIGRATIONS_DIR } from './clickhouse/migrator';
import { CLICKHOUSE_TARGETS, clickHouseTargetOptions } from './testing/clickhouse-targets';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Two whole hours back: every period size divides it, and the events are recent enough for the
 * one-day store behind periods under a minute. The rollups do not depend on the time.
 */
const T0 = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
const SUM: InsightStatistic = { kind: 'Sum' };
let sequence = 0;

describe.each(CLICKHOUSE_TARGETS)('Metric source contract (%s)', (target) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let options: ClickHouseEventLogOptions;
  let log: ClickHouseEventLog;
  let metrics: ClickHouseMetricSource;
  let client: ClickHouseClient;
  let scope: MetricScope;

  /** An event of `welcome` in env-1 unless told, `seconds` after T0. */
  const event = (
    name: string,
    seconds: number,
    fields: LogFields = {},
    overrides: Partial<DeliveryEvent> = {},
  ): DeliveryEvent =>
    aDeliveryEvent({
      eventId: `evt-${String(++sequence).padStart(8, '0')}`,
      accountId: scope.accountId,
      envId: 'env-1',
      trackingId: `trk-${sequence}`,
      time: T0 + seconds * 1000,
      event: name,
      fields,
      ...overrides,
    });

  const request = (
    metric: InsightMetric,
    filters: SeriesRequest['filters'] = {},
    stat: InsightStatistic = SUM,
    periodSeconds = 3600,
  ): SeriesRequest => ({ metric, filters, stat, periodSeconds, startMs: T0, endMs: T0 + 2 * HOUR });

  /** The totals of each request over the two hours after T0. */
  const totals = async (requests: readonly SeriesRequest[], within = scope) =>
    (await metrics.series(within, requests)).map((points) => points.reduce((sum, p) => sum + p.value, 0));

  beforeAll(async () => {
    dir = await tempDir('notify-ch-');
    options = await clickHouseTargetOptions(target, dir.path);
    log = await ClickHouseEventLog.open(options);
    metrics = await ClickHouseMetricSource.open(options);
    client = await openClickHouseClient(options);
  });

  afterAll(async () => {
    await client?.close();
    await metrics?.close();
    await log?.close();
    await dir?.remove();
  });

  beforeEach(() => {
    scope = { accountId: uniqueName('acct'), envIds: ['env-1'] };
  });

  it('counts each metric by channel and notification id from the events that mean it', async () => {
    await log.append([
      event('request_received', 1),
      event('request_received', 2),
      event('request_received', 3, {}, { notificationId: 'invoice' }),
      event('email_sent', 4, { email_sent_after: 100 }),
      event('email_sent', 5, { email_sent_after: 200 }, { notificationId: 'invoice' }),
      event('sms_sent', 6, { sms_sent_after: 50 }),
      event('mobile_push_sent', 6, { mobile_push_sent_after: 70 }),
      event('email_delivered', 7, { email_delivered_after: 1000 }),
      event('inapp_delivered', 7, { inapp_delivered_after: 5 }),
      event('sms_failed', 8, { sms_failed_code: 'X' }),
      event('sms_failed', 9),
      event('failed', 9, { failed_code: 'UNKNOWN' }),
      event('email_opened', 10),
      event('email_clicked', 11),
      event('email_clicked', 12),
      event('routed', 13, { email_routing: 'IGNORE', sms_routing: 'THROTTLED', ignored: 'THROTTLING' }),
      event('routed', 14, { mobile_push_routing: 'DEDUPLICATED', call_routing: 'SEND' }),
      event('routed', 15, { email_routing: 'SEND', sms_routing: 'BATCH', slack_routing: 'OFF' }),
      // A send held for its schedule is routed again when released: its ignored channel counts once.
      event('routed', 15, { email_routing: 'SCHEDULE', sms_routing: 'IGNORE' }),
      event('routed', 16, { email_routing: 'SEND', sms_routing: 'IGNORE' }),
      // Events that count for no metric.
      event('email_inbound', 16),
      event('webhook_attempt', 17),
      event('digest_routed', 18, { email_preview: 'x' }),
    ]);

    expect(
      await totals([
        request('Requests'),
        request('Requests', { NotificationId: 'welcome' }),
        request('Requests', { NotificationId: 'invoice' }),
        request('Sent'),
        request('Sent', { Channel: 'EMAIL' }),
        request('Sent', { Channel: 'EMAIL', NotificationId: 'welcome' }),
        request('Sent', { Channel: 'SMS' }),
        request('Sent', { Channel: 'PUSH' }),
        request('Delivered', { Channel: 'EMAIL' }),
        request('Delivered', { Channel: 'INAPP_WEB' }),
        request('Failed'),
        request('Failed', { Channel: 'SMS' }),
        request('Opened', { Channel: 'EMAIL' }),
        request('Clicked'),
        request('Ignored'),
        request('Ignored', { Channel: 'EMAIL' }),
        request('Ignored', { Channel: 'SMS' }),
        request('Ignored', { Channel: 'PUSH' }),
        request('Ignored', { Channel: 'CALL' }),
        request('Sent', { EnvId: 'env-1' }),
      ]),
    ).toEqual([3, 2, 1, 4, 2, 1, 1, 1, 1, 1, 3, 2, 1, 2, 5, 1, 2, 1, 0, 4]);
    // Sum and SampleCount both count events.
    expect(await totals([request('Sent', {}, { kind: 'SampleCount' })])).toEqual([4]);
  });

  it('names every channel as the API does', async () => {
    await log.append(CHANNELS.map((channel, i) => event(`${logPrefix(channel)}_sent`, i)));
    expect(await totals(CHANNELS.map((channel) => request('Sent', { Channel: channel })))).toEqual(
      CHANNELS.map(() => 1),
    );
  });

  it('gives latency statistics: average, minimum and maximum exactly, percentiles within the digest', async () => {
    // 1..100 ms over two minutes and two notification ids: the digests of several rows merge.
    await log.append(
      Array.from({ length: 100 }, (_, i) =>
        event('email_delivered', i, { email_delivered_after: i + 1 }, { notificationId: `n${i % 2}` }),
      ),
    );
    // A Delivered event without its latency counts but does not move the statistics.
    await log.append([event('email_delivered', 5)]);
    const stats: InsightStatistic[] = [
      { kind: 'Average' },
      { kind: 'Minimum' },
      { kind: 'Maximum' },
      { kind: 'percentile', p: 50 },
      { kind: 'percentile', p: 99 },
      { kind: 'Sum' },
    ];
    const values = async (periodSeconds: number) =>
      (
        await metrics.series(
          scope,
          stats.map((stat) => request('Delivered', { Channel: 'EMAIL' }, stat, periodSeconds)),
        )
      ).map((points) => points[0]?.value ?? Number.NaN);
    const [average, minimum, maximum, p50, p99, count] = await values(3600);
    expect([average, minimum, maximum, count]).toEqual([50.5, 1, 100, 101]);
    expect(Math.abs((p50 ?? 0) - 50.5)).toBeLessThanOrEqual(2);
    expect(Math.abs((p99 ?? 0) - 99)).toBeLessThanOrEqual(2);
    // Under a minute, from the single events: the first ten seconds hold latencies 1..10.
    const [rawAverage, rawMinimum, rawMaximum, rawP50, , rawCount] = await values(10);
    expect([rawAverage, rawMinimum, rawMaximum, rawCount]).toEqual([5.5, 1, 10, 11]);
    expect(Math.abs((rawP50 ?? 0) - 5.5)).toBeLessThanOrEqual(1);
    // Metrics without latency have no latency statistics.
    expect(await metrics.series(scope, [request('Requests', {}, { kind: 'Average' })])).toEqual([[]]);
    // Each level asked alone gives what it gives next to the others (one digest for all of them).
    for (const [i, stat] of stats.entries())
      if (stat.kind === 'percentile')
        expect(await metrics.series(scope, [request('Delivered', { Channel: 'EMAIL' }, stat, 3600)])).toEqual(
          [[{ timestampMs: T0, value: [p50, p99][i - 3] }]],
        );
  });

  it('stops a query at its memory limit with an error that names it', async () => {
    await log.append([event('email_sent', 1)]);
    const bounded = await ClickHouseMetricSource.open(options, {
      maxMemoryBytes: 1,
      maxSeconds: 20,
      maxThreads: 1,
    });
    try {
      await expect(bounded.series(scope, [request('Sent')])).rejects.toEqual(
        new MetricQueryLimitError('memory'),
      );
      // The limits are the query's own: the next one, with the usual limits, is answered.
      expect(await totals([request('Sent')])).toEqual([1]);
    } finally {
      await bounded.close();
    }
  });

  it('aligns periods to the epoch and keeps only periods with events, ascending', async () => {
    const at = [10, 70, 299, 301, 3599, 3601, 3601];
    await log.append(at.map((seconds) => event('sms_sent', seconds)));
    const points = async (periodSeconds: number) =>
      (await metrics.series(scope, [request('Sent', {}, SUM, periodSeconds)]))[0]?.map((p) => [
        (p.timestampMs - T0) / 1000,
        p.value,
      ]);
    expect(await points(60)).toEqual([
      [0, 1],
      [60, 1],
      [240, 1],
      [300, 1],
      [3540, 1],
      [3600, 2],
    ]);
    expect(await points(300)).toEqual([
      [0, 3],
      [300, 1],
      [3300, 1],
      [3600, 2],
    ]);
    expect(await points(3600)).toEqual([
      [0, 5],
      [3600, 2],
    ]);
    expect(await points(10)).toEqual([
      [10, 1],
      [70, 1],
      [290, 1],
      [300, 1],
      [3590, 1],
      [3600, 2],
    ]);
    // Start inclusive, end exclusive.
    const [window] = await metrics.series(scope, [
      { ...request('Sent', {}, SUM, 60), startMs: T0 + 60_000, endMs: T0 + 300_000 },
    ]);
    expect(window).toEqual([
      { timestampMs: T0 + 60_000, value: 1 },
      { timestampMs: T0 + 240_000, value: 1 },
    ]);
  });

  it('answers only within the scope: another account or environment sees nothing', async () => {
    await log.append([
      event('email_sent', 1),
      event('email_sent', 2, {}, { envId: 'env-2' }),
      event('email_sent', 3, {}, { envId: 'env-2' }),
    ]);
    const sent = request('Sent');
    expect(await totals([sent])).toEqual([1]);
    expect(await totals([sent], { ...scope, envIds: ['env-2'] })).toEqual([2]);
    expect(
      await totals([sent, request('Sent', { EnvId: 'env-2' })], { ...scope, envIds: ['env-1', 'env-2'] }),
    ).toEqual([3, 2]);
    // A dimension never widens the scope.
    expect(await totals([request('Sent', { EnvId: 'env-2' })])).toEqual([0]);
    expect(await totals([sent], { accountId: 'someone-else', envIds: ['env-1', 'env-2'] })).toEqual([0]);
    expect(await metrics.series({ ...scope, envIds: [] }, [sent])).toEqual([[]]);
  });

  it('answers many requests in order, across queries', async () => {
    await log.append([event('email_sent', 1), event('sms_sent', 2), event('sms_sent', 3)]);
    const requests = Array.from({ length: 120 }, (_, i) =>
      request('Sent', { Channel: i % 2 === 0 ? 'EMAIL' : 'SMS' }, SUM, i % 3 === 0 ? 10 : 60),
    );
    expect(await totals(requests)).toEqual(requests.map((_, i) => (i % 2 === 0 ? 1 : 2)));
  });

  it('counts a retried append once', async () => {
    const batch = [event('email_sent', 1, { email_sent_after: 5 }), event('email_failed', 2)];
    await log.append(batch);
    await log.append(batch);
    expect(await totals([request('Sent'), request('Failed'), request('Sent', {}, SUM, 10)])).toEqual([
      1, 1, 1,
    ]);
  });

  it.each([60, 3600])(
    'rolls up per %i s exactly what a GROUP BY over the delivery events gives',
    async (period) => {
      const names = [
        'email_sent',
        'email_delivered',
        'sms_sent',
        'sms_failed',
        'call_delivered',
        'request_received',
      ];
      await log.append(
        Array.from({ length: 600 }, (_, i) =>
          event(
            names[(i * 7) % names.length] ?? 'email_sent',
            (i * 37) % 7200,
            {},
            { notificationId: `n${i % 5}` },
          ),
        ),
      );
      const raw = await client.query({
        query: `SELECT event, notification_id, toUnixTimestamp(toStartOfInterval(event_time, INTERVAL {period:UInt32} SECOND)) * 1000 AS t, count() AS n
          FROM ${options.database}.delivery_events FINAL WHERE account_id = {a:String}
          GROUP BY event, notification_id, t ORDER BY t`,
        query_params: { a: scope.accountId, period },
        format: 'JSONEachRow',
      });
      const rows = await raw.json<{ event: string; notification_id: string; t: string; n: string }>();
      const cases: [InsightMetric, SeriesRequest['filters'], string][] = [
        ['Sent', { Channel: 'EMAIL', NotificationId: 'n0' }, 'email_sent'],
        ['Delivered', { Channel: 'EMAIL', NotificationId: 'n1' }, 'email_delivered'],
        ['Sent', { Channel: 'SMS', NotificationId: 'n2' }, 'sms_sent'],
        ['Failed', { Channel: 'SMS', NotificationId: 'n0' }, 'sms_failed'],
        ['Delivered', { Channel: 'CALL', NotificationId: 'n1' }, 'call_delivered'],
        ['Requests', { NotificationId: 'n2' }, 'request_received'],
      ];
      const series = await metrics.series(
        scope,
        cases.map(([metric, filters]) => request(metric, filters, SUM, period)),
      );
      cases.forEach(([, filters, name], i) => {
        const expected = rows
          .filter((r) => r.event === name && r.notification_id === filters.NotificationId)
          .map((r) => ({ timestampMs: Number(r.t), value: Number(r.n) }));
        expect(expected.length).toBeGreaterThan(1);
        expect(series[i]).toEqual(expected);
      });
    },
  );

  /** A database at 0002 (before the rollups) holding `history`, as an upgrade finds it. */
  const databaseBefore0003 = async (suffix: string, history: readonly DeliveryEvent[]) => {
    const database = `${options.database}_${suffix}`;
    const before = join(dir.path, `migrations-0002-${suffix}`);
    await mkdir(before, { recursive: true });
    for (const name of ['0001_delivery_log.sql', '0002_delivery_events_map.sql'])
      await copyFile(join(MIGRATIONS_DIR, name), join(before, name));
    await migrate(client, database, before);
    // In blocks sorted by tracking id, as a log's history is: each spans the whole history.
    await client.insert({
      table: `${database}.delivery_events`,
      format: 'JSONEachRow',
      values: [...history]
        .sort((a, b) => a.trackingId.localeCompare(b.trackingId))
        .map((e) => ({
          account_id: e.accountId,
          env_id: e.envId,
          tracking_id: e.trackingId,
          event_id: e.eventId,
          event_time: new Date(e.time).toISOString().replace('T', ' ').replace('Z', ''),
          event: e.event,
          channel: '',
          fields: Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k, String(v)])),
        })),
    });
    return database;
  };

  it('backfills the rollups from the history once, however often the migration runs', async () => {
    const database = await databaseBefore0003('history', [
      event('email_sent', 1, { email_sent_after: 9 }),
      event('email_sent', 61),
      event('sms_failed', 62),
    ]);
    const upgraded = await ClickHouseEventLog.open({ ...options, database });
    const history = await ClickHouseMetricSource.open({ ...options, database });
    try {
      const expected = [
        [T0, T0 + 60_000],
        [1, 1],
      ];
      const check = async () => {
        const [sent, failed, maximum] = await history.series(scope, [
          request('Sent', { Channel: 'EMAIL' }, SUM, 60),
          request('Failed', { Channel: 'SMS' }, SUM, 60),
          request('Sent', {}, { kind: 'Maximum' }, 3600),
        ]);
        expect([sent?.map((p) => p.timestampMs), sent?.map((p) => p.value)]).toEqual(expected);
        expect(failed?.map((p) => p.value)).toEqual([1]);
        // History has no notification id: it was not stored before.
        expect(maximum).toEqual([{ timestampMs: T0, value: 9 }]);
      };
      await check();
      // The migration run again (as if interrupted before it was recorded) adds nothing.
      await client.command({
        query: `ALTER TABLE ${database}.schema_migrations DELETE WHERE version = 3`,
        clickhouse_settings: { mutations_sync: '1' },
      });
      expect((await migrate(client, database)).applied).toEqual(['0003_insights_rollups.sql']);
      await check();
    } finally {
      await history.close();
      await upgraded.close();
    }
  });

  /** Sent and Failed, each day, from `days` days before T0 to T0 (hourly rollup, whole hours). */
  const daily = (days: number) =>
    (['Sent', 'Failed'] as const).map((metric): SeriesRequest => ({
      metric,
      filters: {},
      stat: SUM,
      periodSeconds: 86_400,
      startMs: T0 - days * DAY,
      endMs: T0 + HOUR,
    }));

  /** Events over the last 300 days: one a day, each tracking id one every 10 days. */
  const spread = () =>
    Array.from({ length: 300 }, (_, i) =>
      event(
        i % 3 === 0 ? 'sms_failed' : 'email_sent',
        -i * 86_400 - (i % 10) * 60,
        {},
        {
          trackingId: `trk-spread-${i % 10}`,
        },
      ),
    );
  const expectedDaily = (events: readonly DeliveryEvent[], name: string) => {
    const days = new Map<number, number>();
    for (const e of events.filter((e) => e.event === name && e.time >= Date.now() - 455 * DAY)) {
      const day = Math.floor(e.time / DAY) * DAY;
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    return [...days.entries()]
      .sort(([a], [b]) => a - b)
      .map(([timestampMs, value]) => ({ timestampMs, value }));
  };

  it('counts an append whose events span more than 100 days, as a late batch does', async () => {
    const events = spread();
    await log.append(events);
    const [sent, failed] = await metrics.series(scope, daily(310));
    expect(sent).toEqual(expectedDaily(events, 'email_sent'));
    expect(failed).toEqual(expectedDaily(events, 'sms_failed'));
  });

  it('backfills a history spanning more than 100 days exactly, again after an interrupted run', async () => {
    const history = spread();
    const database = await databaseBefore0003('spread', history);
    const check = async () => {
      const source = await ClickHouseMetricSource.open({ ...options, database });
      try {
        const [sent, failed] = await source.series(scope, daily(310));
        expect(sent).toEqual(expectedDaily(history, 'email_sent'));
        expect(failed).toEqual(expectedDaily(history, 'sms_failed'));
      } finally {
        await source.close();
      }
    };
    await (await ClickHouseEventLog.open({ ...options, database })).close();
    await check();
    // An interrupted run: two months not recorded done, one of them already half counted again.
    const done = await client.query({
      query: `SELECT month FROM ${database}.insight_backfilled_months ORDER BY month DESC LIMIT 2`,
      format: 'JSONEachRow',
    });
    const months = (await done.json<{ month: number }>()).map((row) => Number(row.month));
    expect(months).toHaveLength(2);
    await client.command({
      query: `INSERT INTO ${database}.insight_feed SELECT account_id, env_id, notification_id, event_time, event, fields, 7
        FROM ${database}.delivery_events WHERE toYYYYMM(event_time) = ${months[0]} AND cityHash64(event_id) % 2 = 0`,
    });
    await client.command({
      query: `ALTER TABLE ${database}.insight_backfilled_months DELETE WHERE month IN (${months.join(', ')})`,
      clickhouse_settings: { mutations_sync: '1' },
    });
    await (await ClickHouseEventLog.open({ ...options, database })).close();
    await check();
  });
});
