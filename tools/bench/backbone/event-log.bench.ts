// Append throughput of the event log on the embedded ClickHouse engine (batches of 1,000), against
// a baseline in the same run: the same rows inserted into a plain MergeTree table with no fold
// behind it. Then the latency of a 25-id lookup over what was written.
import { type DeliveryEvent, LOG_FIELDS } from '@notify/domain';
import { ClickHouseEventLog, openClickHouseClient } from '@notify/event-log';
import { tempDir } from '@notify/testing';
import { percentile, report, runBench } from '../report';
import { sized } from '../smoke';

const EVENTS = Number(process.env.BENCH_EVENTS ?? sized(50_000, 2_000));
const LOOKUPS = sized(200, 20);
const BATCH = 1_000;
const STEPS = ['request_received', 'email_routed', 'email_sent', 'email_delivered', 'email_opened'];

function events(count: number, run: string): DeliveryEvent[] {
  const t0 = Date.now() - 3_600_000;
  return Array.from({ length: count }, (_, i) => {
    const tracking = Math.floor(i / STEPS.length);
    const step = i % STEPS.length;
    return {
      eventId: `${run}-${String(i).padStart(9, '0')}`,
      accountId: 'bench-account',
      envId: 'bench-env',
      trackingId: `${run}-t${tracking}`,
      time: t0 + i,
      event: STEPS[step] ?? 'x',
      channel: 'email',
      fields:
        step === 0
          ? {
              received_at: new Date(t0 + i).toISOString(),
              type: 'welcome',
              user_id: `u${tracking % 500}`,
              user_email: 'user@example.com',
            }
          : step === 1
            ? { email_routing: 'SEND', processed_at: new Date(t0 + i).toISOString() }
            : step === 2
              ? {
                  email_sent_at: new Date(t0 + i).toISOString(),
                  email_sent_after: 12,
                  email_sent_message_id: `<m${i}@x>`,
                }
              : step === 3
                ? { email_delivered_at: new Date(t0 + i).toISOString(), email_delivered_after: 40 }
                : { email_opened_at: new Date(t0 + i).toISOString(), email_opened_ip: '127.0.0.1' },
    };
  });
}

async function main(): Promise<void> {
  const dir = await tempDir('notify-bench-');
  const options = { database: 'bench', path: dir.path, retentionDays: 30 };
  const log = await ClickHouseEventLog.open(options);
  const client = await openClickHouseClient(options);
  try {
    // Baseline: a table shaped like `events` with nothing behind it.
    await client.command({
      query:
        'CREATE TABLE bench.raw_events AS bench.events ENGINE = MergeTree ORDER BY (account_id, env_id, tracking_id, event_time)',
    });
    const baselineRows = events(EVENTS, 'base').map((e) => ({
      ...e.fields,
      account_id: e.accountId,
      env_id: e.envId,
      tracking_id: e.trackingId,
      event_id: e.eventId,
      event_time: new Date(e.time).toISOString().replace('T', ' ').replace('Z', ''),
      event: e.event,
      channel: e.channel,
    }));
    let started = performance.now();
    for (let i = 0; i < baselineRows.length; i += BATCH) {
      await client.insert({
        table: 'bench.raw_events',
        values: baselineRows.slice(i, i + BATCH),
        format: 'JSONEachRow',
        clickhouse_settings: { insert_deduplication_token: `base-${i}` },
      });
    }
    const baselineRate = EVENTS / ((performance.now() - started) / 1000);

    const all = events(EVENTS, 'run');
    started = performance.now();
    for (let i = 0; i < all.length; i += BATCH) await log.append(all.slice(i, i + BATCH));
    const appendRate = EVENTS / ((performance.now() - started) / 1000);

    const trackingIds = [...new Set(all.map((e) => e.trackingId))];
    const latencies: number[] = [];
    for (let i = 0; i < LOOKUPS; i++) {
      const ids = Array.from(
        { length: 25 },
        (_, j) => trackingIds[(i * 97 + j * 13) % trackingIds.length] ?? '',
      );
      const t = performance.now();
      const records = await log.records({ accountId: 'bench-account', envId: 'bench-env' }, ids);
      latencies.push(performance.now() - t);
      if (records.length !== 25) throw new Error(`lookup returned ${records.length} records`);
    }
    latencies.sort((a, b) => a - b);
    report(
      'event-log',
      `embedded ClickHouse (chDB), ${EVENTS.toLocaleString('en-US')} events, ${LOG_FIELDS.size} log fields`,
      [
        {
          name: 'append, batches of 1,000',
          value: appendRate,
          unit: 'events/s',
          baseline: baselineRate,
          note: 'baseline: same rows, plain MergeTree, no fold',
        },
        { name: 'lookup of 25 ids, p50', value: percentile(latencies, 50), unit: 'ms' },
        { name: 'lookup of 25 ids, p99', value: percentile(latencies, 99), unit: 'ms' },
      ],
    );
  } finally {
    await client.close();
    await log.close();
    await dir.remove();
  }
}

runBench(main);
