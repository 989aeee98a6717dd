import type { ClickHouseClient } from '@clickhouse/client';
import { type DeliveryEvent, type LogFields, type TenantScope } from '@notify/domain';
import type { EventPosition } from './event-log.port';
import { tempDir, uniqueName } from '@notify/testing';
import {
  ClickHouseEventLog,
  type ClickHouseEventLogOptions,
  openClickHouseClient,
  toDateTime64,
} from './clickhouse/clickhouse.event-log';
import { EVENT_FIELDS_TYPE, FOLDED_FIELDS_TYPE } from './clickhouse/columns';
import { migrate, MIGRATIONS_DIR } from './clickhouse/migrator';
import {
  CLICKHOUSE_TARGETS,
  clickHouseTargetOptions,
  TEST_RETENTION_DAYS,
} from './testing/clickhouse-targets';
import { applyRetention } from './clickhouse/retention';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const RETENTION_DAYS = TEST_RETENTION_DAYS;
const DAY = 86_400_000;
/** A folded record expires from its last event or, when later, the time its send is due. */
const recordTtl = (days: number) =>
  `greatest(toDateTime(last_event_time), parseDateTimeBestEffortOrZero((fields['scheduled_for']).3, 'UTC'), parseDateTimeBestEffortOrZero((fields['schedule_updated_to']).3, 'UTC')) + toIntervalDay(${days})`;
let sequence = 0;
/** Time-ordered ids, like the services' event ids. */
const nextId = () => `evt-${String(++sequence).padStart(8, '0')}`;

describe.each(CLICKHOUSE_TARGETS)('Event log contract (%s)', (target) => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let options: ClickHouseEventLogOptions;
  let log: ClickHouseEventLog;
  let client: ClickHouseClient;
  let scope: TenantScope;

  const event = (
    trackingId: string,
    time: number,
    fields: LogFields,
    overrides: Partial<DeliveryEvent> = {},
  ): DeliveryEvent => ({
    eventId: nextId(),
    ...scope,
    trackingId,
    time,
    event: 'test',
    fields,
    ...overrides,
  });

  beforeAll(async () => {
    dir = await tempDir('notify-ch-');
    options = await clickHouseTargetOptions(target, dir.path);
    log = await ClickHouseEventLog.open(options);
    client = await openClickHouseClient(options);
  });

  afterAll(async () => {
    await client?.close();
    await log?.close();
    await dir?.remove();
  });

  beforeEach(() => {
    scope = { accountId: uniqueName('acct'), envId: 'env-1' };
  });

  /** Each delivery-log table's TTL expression, as ClickHouse reports the table. */
  async function ttls(database: string): Promise<Record<string, string | undefined>> {
    const result = await client.query({
      query:
        "SELECT name, engine_full FROM system.tables WHERE database = {db:String} AND name IN ('delivery_events', 'log_records', 'events') ORDER BY name",
      query_params: { db: database },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ name: string; engine_full: string }>();
    return Object.fromEntries(
      rows.map((r) => [r.name, / TTL (.+?)(?: SETTINGS |$)/.exec(r.engine_full)?.[1]]),
    );
  }

  it('keeps the fields of each event in one map, and one folded map per record', async () => {
    const result = await client.query({
      query:
        "SELECT table, name, type FROM system.columns WHERE database = {db:String} AND table IN ('delivery_events', 'log_records')",
      query_params: { db: options.database },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ table: string; name: string; type: string }>();
    const typesOf = (table: string) =>
      Object.fromEntries(rows.filter((r) => r.table === table).map((r) => [r.name, r.type]));
    const keys = ['account_id', 'env_id', 'tracking_id'];
    const events = typesOf('delivery_events');
    const folded = typesOf('log_records');
    expect(Object.keys(events).sort()).toEqual(
      [...keys, 'event_id', 'event_time', 'event', 'channel', 'notification_id', 'fields'].sort(),
    );
    expect(events.fields).toBe(EVENT_FIELDS_TYPE);
    expect(Object.keys(folded).sort()).toEqual(
      [...keys, 'fields', 'first_event_time', 'last_event_time'].sort(),
    );
    expect(folded.fields).toBe(FOLDED_FIELDS_TYPE);
  });

  it('folds events into one record: per field, the latest non-null value by event time', async () => {
    await log.append([event('t1', T0 + 30, { email_delivered_at: 'delivered', email_routing: 'SEND' })]);
    await log.append([
      event('t1', T0 + 10, { email_sent_at: 'sent', email_sent_after: 10, email_routing: 'IGNORE' }),
    ]);
    await log.append([
      event('t1', T0, { type: 'welcome', received_at: 'r', test: false, email_routing: 'SCHEDULE' }),
    ]);
    const [record] = await log.records(scope, ['t1']);
    expect(record).toEqual({
      trackingId: 't1',
      accountId: scope.accountId,
      envId: 'env-1',
      type: 'welcome',
      received_at: 'r',
      test: false,
      email_sent_at: 'sent',
      email_sent_after: 10,
      email_delivered_at: 'delivered',
      email_routing: 'SEND',
    });
  });

  it('breaks ties within a millisecond by event id', async () => {
    await log.append([
      event('tie', T0, { email_routing: 'SEND' }, { eventId: 'evt-b' }),
      event('tie', T0, { email_routing: 'IGNORE' }, { eventId: 'evt-a' }),
    ]);
    expect((await log.records(scope, ['tie']))[0]?.email_routing).toBe('SEND');
  });

  it('folds a duplicated append into one record and drops the retried insert', async () => {
    const batch = [
      event('dup', T0, { type: 'a', email_sent_after: 5 }),
      event('dup', T0 + 1, { email_sent_at: 'x' }),
    ];
    await log.append(batch);
    await log.append(batch);
    await log.append([...batch].reverse());
    expect(await log.records(scope, ['dup'])).toEqual([
      {
        trackingId: 'dup',
        accountId: scope.accountId,
        envId: 'env-1',
        type: 'a',
        email_sent_after: 5,
        email_sent_at: 'x',
      },
    ]);
    const count = await client.query({
      query: `SELECT count() AS n FROM ${options.database}.delivery_events FINAL WHERE account_id = {a:String}`,
      query_params: { a: scope.accountId },
      format: 'JSONEachRow',
    });
    expect(Number((await count.json<{ n: string }>())[0]?.n)).toBe(2);
  });

  it('returns records in the order asked, omits unknown ids, and never crosses tenants', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `many-${i}`);
    await log.append(ids.map((id, i) => event(id, T0 + i, { user_id: `u${i}` })));
    const otherEnv = { ...scope, envId: 'env-2' };
    await log.append([{ ...event('many-0', T0, { user_id: 'intruder' }), ...otherEnv }]);

    const wanted = [...ids].reverse();
    const records = await log.records(scope, [...wanted, 'unknown-id']);
    expect(records.map((r) => r.trackingId)).toEqual(wanted);
    expect(records.find((r) => r.trackingId === 'many-0')?.user_id).toBe('u0');
    expect((await log.records(otherEnv, ['many-0']))[0]?.user_id).toBe('intruder');
    expect(await log.records({ accountId: 'someone-else', envId: 'env-1' }, ids)).toEqual([]);
  });

  it('queries by time range, user, type and channel, newest first, with complete records', async () => {
    await log.append([
      event('q1', T0, { user_id: 'alice', type: 'welcome', email_routing: 'SEND' }),
      event('q2', T0 + 1_000, { user_id: 'bob', type: 'welcome', sms_routing: 'SEND' }),
      event('q3', T0 + 2_000, { user_id: 'alice', type: 'invoice', email_routing: 'SEND' }),
      event('q4', T0 + 60_000, { user_id: 'alice', type: 'welcome' }),
    ]);
    // A later event of q1, outside the range, must still be folded into q1's record.
    await log.append([event('q1', T0 + 120_000, { email_delivered_at: 'late' })]);
    const base = { accountId: scope.accountId, envIds: ['env-1'], from: T0, to: T0 + 10_000 };

    expect((await log.query(base)).map((r) => r.trackingId)).toEqual(['q3', 'q2', 'q1']);
    expect((await log.query(base)).find((r) => r.trackingId === 'q1')?.email_delivered_at).toBe('late');
    expect((await log.query({ ...base, userIds: ['alice'] })).map((r) => r.trackingId)).toEqual(['q3', 'q1']);
    expect((await log.query({ ...base, types: ['welcome'] })).map((r) => r.trackingId)).toEqual(['q2', 'q1']);
    expect((await log.query({ ...base, channels: ['sms'] })).map((r) => r.trackingId)).toEqual(['q2']);
    expect(
      (await log.query({ ...base, anyFieldSet: ['email_delivered_at'] })).map((r) => r.trackingId),
    ).toEqual(['q1']);
    expect((await log.query({ ...base, limit: 1 })).map((r) => r.trackingId)).toEqual(['q3']);
    expect(await log.query({ ...base, envIds: ['env-2'] })).toEqual([]);
  });

  it("lists the environment's events newest first, paging exactly through events of one millisecond", async () => {
    const batch = [
      event(
        'p1',
        T0,
        { type: 'welcome', email_routing: 'SEND' },
        { event: 'request_received', eventId: 'e-1' },
      ),
      event(
        'p1',
        T0 + 5,
        { email_sent_at: 's', email_sent_after: 5 },
        { event: 'email_sent', eventId: 'e-2' },
      ),
      event('p2', T0 + 5, { sms_sent_at: 's' }, { event: 'sms_sent', eventId: 'e-4' }),
      event(
        'p3',
        T0 + 5,
        { email_inbound_has_attachments: true },
        { event: 'email_inbound', eventId: 'e-3' },
      ),
      event('p2', T0 + 5, { sms_delivered_at: 'd' }, { event: 'sms_delivered', eventId: 'e-5' }),
      event('p1', T0 + 9, { email_delivered_at: 'd' }, { event: 'email_delivered', eventId: 'e-6' }),
    ];
    await log.append(batch);
    // The same events again in another batch: rows the table holds twice until it merges.
    await log.append(batch.slice(1, 4));
    await log.append([{ ...event('p9', T0 + 7, { type: 'other' }), envId: 'env-2' }]);

    const seen: string[] = [];
    let before: EventPosition | undefined;
    for (let page = 0; page < 10; page++) {
      const events = await log.events(scope, { limit: 2, ...(before ? { before } : {}) });
      seen.push(...events.map((e) => e.eventId));
      const last = events.at(-1);
      if (last === undefined) break;
      before = { time: last.time, eventId: last.eventId };
    }
    expect(seen).toEqual(['e-6', 'e-5', 'e-4', 'e-3', 'e-2', 'e-1']);
    const [first] = await log.events(scope, { limit: 1, before: { time: T0 + 5, eventId: 'e-3' } });
    expect(first).toEqual({
      trackingId: 'p1',
      eventId: 'e-2',
      time: T0 + 5,
      event: 'email_sent',
      fields: { email_sent_at: 's', email_sent_after: 5 },
    });
    expect(
      (await log.events(scope, { limit: 10, before: { time: T0 + 5, eventId: 'e-4' } }))[0]?.fields,
    ).toEqual({ email_inbound_has_attachments: true });
    expect((await log.events({ ...scope, envId: 'env-2' }, { limit: 10 })).map((e) => e.trackingId)).toEqual([
      'p9',
    ]);
    expect(await log.events({ accountId: 'someone-else', envId: 'env-1' }, { limit: 10 })).toEqual([]);
  });

  it("lists one tracking id's events oldest first, each once, within its scope and limit", async () => {
    const batch = [
      event(
        'one',
        T0,
        { type: 'welcome', request: '{"type":"welcome"}' },
        { event: 'request_received', eventId: 'o-1' },
      ),
      event('one', T0 + 5, { email_routing: 'SEND' }, { event: 'routed', eventId: 'o-3' }),
      event('one', T0 + 5, { email_sent_after: 5 }, { event: 'email_sent', eventId: 'o-2' }),
      event('one', T0 + 9, { email_delivered_at: 'd' }, { event: 'email_delivered', eventId: 'o-4' }),
      event('two', T0 + 1, { type: 'other' }, { event: 'request_received', eventId: 'o-5' }),
    ];
    await log.append(batch);
    // The same events again in another batch: rows the table holds twice until it merges.
    await log.append(batch.slice(1, 3).reverse());
    await log.append([{ ...event('one', T0 + 2, { type: 'intruder' }), envId: 'env-2' }]);

    const events = await log.eventsOf(scope, 'one', 1_000);
    expect(events.map((e) => [e.eventId, e.event])).toEqual([
      ['o-1', 'request_received'],
      ['o-2', 'email_sent'],
      ['o-3', 'routed'],
      ['o-4', 'email_delivered'],
    ]);
    expect(events[0]).toEqual({
      trackingId: 'one',
      eventId: 'o-1',
      time: T0,
      event: 'request_received',
      fields: { type: 'welcome', request: '{"type":"welcome"}' },
    });
    expect(events[1]?.fields).toEqual({ email_sent_after: 5 });
    expect((await log.eventsOf(scope, 'one', 2)).map((e) => e.eventId)).toEqual(['o-1', 'o-2']);
    expect((await log.eventsOf({ ...scope, envId: 'env-2' }, 'one', 10)).map((e) => e.fields)).toEqual([
      { type: 'intruder' },
    ]);
    expect(await log.eventsOf({ accountId: 'someone-else', envId: 'env-1' }, 'one', 10)).toEqual([]);
    expect(await log.eventsOf(scope, 'unknown', 10)).toEqual([]);
  });

  it('tails the records whose last event is latest, newest first, folded whole', async () => {
    await log.append([
      event('r1', T0, { type: 'welcome', email_routing: 'SEND' }),
      event('r2', T0 + 10, { type: 'invoice' }),
      event('r3', T0 + 5, { type: 'reminder' }),
    ]);
    await log.append([event('r1', T0 + 20, { email_delivered_at: 'd' })]);
    await log.append([{ ...event('r4', T0 + 30, { type: 'elsewhere' }), envId: 'env-2' }]);

    expect((await log.latestRecords(scope, 100)).map((r) => r.trackingId)).toEqual(['r1', 'r2', 'r3']);
    expect(await log.latestRecords(scope, 2)).toEqual([
      {
        trackingId: 'r1',
        accountId: scope.accountId,
        envId: 'env-1',
        type: 'welcome',
        email_routing: 'SEND',
        email_delivered_at: 'd',
      },
      { trackingId: 'r2', accountId: scope.accountId, envId: 'env-1', type: 'invoice' },
    ]);
  });

  it('tails from the last day when it holds enough records, from all of them otherwise', async () => {
    const now = Date.now();
    await log.append([
      event('day-old', now - 2 * DAY, { type: 'old' }),
      event('active', now - 3 * DAY, { type: 'long-running' }),
      event('fresh', now - 60_000, { type: 'fresh' }),
    ]);
    // A later event of a record in rows not merged yet: it ranks by that event.
    await log.append([event('active', now - 1_000, { email_delivered_at: 'd' })]);

    expect(await log.latestRecords(scope, 2)).toEqual([
      {
        trackingId: 'active',
        accountId: scope.accountId,
        envId: scope.envId,
        type: 'long-running',
        email_delivered_at: 'd',
      },
      { trackingId: 'fresh', accountId: scope.accountId, envId: scope.envId, type: 'fresh' },
    ]);
    expect((await log.latestRecords(scope, 3)).map((r) => r.trackingId)).toEqual([
      'active',
      'fresh',
      'day-old',
    ]);
  });

  it('expires events and records after the retention days, by TTLs in the tables', async () => {
    expect(await ttls(options.database)).toEqual({
      delivery_events: `toDateTime(event_time) + toIntervalDay(${RETENTION_DAYS})`,
      events: `toDateTime(event_time) + toIntervalDay(${RETENTION_DAYS})`,
      log_records: recordTtl(RETENTION_DAYS),
    });
    // Opening again with the same setting alters nothing.
    expect(await applyRetention(client, options.database, RETENTION_DAYS)).toEqual([]);
  });

  it('applies a changed retention when opened again, once, and deletes what it no longer covers', async () => {
    const database = `${options.database}_retention`;
    const now = Date.now();
    const first = await ClickHouseEventLog.open({ ...options, database });
    try {
      await first.append([
        event('old', now - 10 * DAY, { type: 'old' }),
        event('both', now - 10 * DAY, { type: 'both' }),
        event('both', now - DAY, { email_sent_at: 'recent' }),
        event('new', now - DAY, { type: 'new' }),
      ]);
    } finally {
      await first.close();
    }
    const shorter = await ClickHouseEventLog.open({ ...options, database, retentionDays: 7 });
    try {
      expect(Object.values(await ttls(database))).toEqual([
        'toDateTime(event_time) + toIntervalDay(7)',
        'toDateTime(event_time) + toIntervalDay(7)',
        recordTtl(7),
      ]);
      expect(await applyRetention(client, database, 7)).toEqual([]);
      for (const table of ['delivery_events', 'log_records'])
        await client.command({ query: `OPTIMIZE TABLE ${database}.${table} FINAL` });
      expect((await shorter.events(scope, { limit: 10 })).map((e) => e.trackingId).sort()).toEqual([
        'both',
        'new',
      ]);
      expect((await shorter.latestRecords(scope, 10)).map((r) => r.trackingId).sort()).toEqual([
        'both',
        'new',
      ]);
      expect(await shorter.records(scope, ['old'])).toEqual([]);
    } finally {
      await shorter.close();
    }
  });

  it("keeps a scheduled send's record while it waits longer than the retention, its early events expiring", async () => {
    const database = `${options.database}_scheduled`;
    const now = Date.now();
    const iso = (time: number) => new Date(time).toISOString();
    const short = await ClickHouseEventLog.open({ ...options, database, retentionDays: 7 });
    try {
      await short.append([
        event('waiting', now - 10 * DAY, { type: 'later', scheduled_for: iso(now + 30 * DAY) }),
        event('moved', now - 10 * DAY, { type: 'moved', scheduled_for: iso(now - 9 * DAY) }),
        event('moved', now - 9 * DAY, { schedule_updated_to: iso(now + 30 * DAY) }),
        event('was-due', now - 10 * DAY, { type: 'sent', scheduled_for: iso(now - 9 * DAY) }),
      ]);
      for (const table of ['delivery_events', 'log_records'])
        await client.command({ query: `OPTIMIZE TABLE ${database}.${table} FINAL` });
      // The fold alone keeps the record whole: its events are gone from the event list.
      expect(await short.events(scope, { limit: 10 })).toEqual([]);
      expect(await short.records(scope, ['waiting', 'moved', 'was-due'])).toEqual([
        {
          trackingId: 'waiting',
          accountId: scope.accountId,
          envId: scope.envId,
          type: 'later',
          scheduled_for: iso(now + 30 * DAY),
        },
        {
          trackingId: 'moved',
          accountId: scope.accountId,
          envId: scope.envId,
          type: 'moved',
          scheduled_for: iso(now - 9 * DAY),
          schedule_updated_to: iso(now + 30 * DAY),
        },
      ]);
    } finally {
      await short.close();
    }
  });

  it('starts on a deployment whose 0001 table the operator dropped after upgrading', async () => {
    const database = `${options.database}_dropped`;
    const upToMap = join(dir.path, 'migrations-0002');
    await mkdir(upToMap, { recursive: true });
    for (const name of ['0001_delivery_log.sql', '0002_delivery_events_map.sql'])
      await copyFile(join(MIGRATIONS_DIR, name), join(upToMap, name));
    await migrate(client, database, upToMap);
    await client.command({ query: `DROP VIEW ${database}.log_records_mv` });
    await client.command({ query: `DROP TABLE ${database}.events` });
    const upgraded = await ClickHouseEventLog.open({ ...options, database });
    try {
      await upgraded.append([event('after', T0, { type: 'kept' })]);
      expect((await upgraded.records(scope, ['after']))[0]?.type).toBe('kept');
      expect(await ttls(database)).toEqual({
        delivery_events: `toDateTime(event_time) + toIntervalDay(${RETENTION_DAYS})`,
        log_records: recordTtl(RETENTION_DAYS),
      });
    } finally {
      await upgraded.close();
    }
  });

  it('refuses to apply a migration whose setting it was not given', async () => {
    const only = join(dir.path, 'migrations-retention');
    await mkdir(only, { recursive: true });
    await copyFile(join(MIGRATIONS_DIR, '0004_log_retention.sql'), join(only, '0004_log_retention.sql'));
    await expect(migrate(client, `${options.database}_unset`, only)).rejects.toThrow(
      'migration 0004_log_retention.sql needs ${logRetentionDays}',
    );
  });

  it('applies each migration once', async () => {
    expect((await migrate(client, options.database)).applied).toEqual([]);
  });

  it('moves the history of a 0001 log (a column per field) into the map, folded as before', async () => {
    const database = `${options.database}_upgrade`;
    const first = join(dir.path, 'migrations-0001');
    await mkdir(first, { recursive: true });
    await copyFile(join(MIGRATIONS_DIR, '0001_delivery_log.sql'), join(first, '0001_delivery_log.sql'));
    await migrate(client, database, first);
    const old = (trackingId: string, time: number, fields: LogFields) => ({
      ...fields,
      account_id: scope.accountId,
      env_id: scope.envId,
      tracking_id: trackingId,
      event_id: nextId(),
      event_time: toDateTime64(time),
      event: 'test',
      channel: '',
    });
    await client.insert({
      table: `${database}.events`,
      format: 'JSONEachRow',
      values: [
        old('up', T0, { type: 'welcome', test: false, email_routing: 'SEND' }),
        old('up', T0 + 5, { email_sent_at: 'sent', email_sent_after: 5 }),
      ],
    });
    const upgraded = await ClickHouseEventLog.open({ ...options, database });
    try {
      await upgraded.append([event('up', T0 + 9, { email_delivered_at: 'now', email_routing: 'IGNORE' })]);
      expect(await upgraded.records(scope, ['up'])).toEqual([
        {
          trackingId: 'up',
          accountId: scope.accountId,
          envId: scope.envId,
          type: 'welcome',
          test: false,
          email_routing: 'IGNORE',
          email_sent_at: 'sent',
          email_sent_after: 5,
          email_delivered_at: 'now',
        },
      ]);
      const moved = await client.query({
        query: `SELECT fields FROM ${database}.delivery_events FINAL WHERE tracking_id = 'up' ORDER BY event_time`,
        format: 'JSONEachRow',
      });
      expect((await moved.json<{ fields: Record<string, string> }>()).map((r) => r.fields)).toEqual([
        { type: 'welcome', test: 'false', email_routing: 'SEND' },
        { email_sent_at: 'sent', email_sent_after: '5' },
        { email_delivered_at: 'now', email_routing: 'IGNORE' },
      ]);
    } finally {
      await upgraded.close();
    }
  });

  if (target === 'embedded') {
    it('keeps its data across a restart', async () => {
      await log.append([event('durable', T0, { type: 'kept' })]);
      await client.close();
      await log.close();
      log = await ClickHouseEventLog.open(options);
      client = await openClickHouseClient(options);
      expect((await log.records(scope, ['durable']))[0]?.type).toBe('kept');
    });
  }
});
