// The recorder alone, draining a pre-filled `events` topic (the events MESSAGES email sends leave:
// received, routed, sent, delivered) into the embedded ClickHouse engine, with its real modules.
// Baseline (`baseline` argument): the same rows inserted into the same engine by plain batched
// INSERTs (JSONEachRow, the recorder's batch size) into a table shaped like `events` with no view
// behind it: no bus, no decoding, no fold.
import { EVENT_BUS, type EmbeddedBus } from '@notify/bus';
import { Groups, Topics } from '@notify/domain';
import { EventLogModule, openClickHouseClient, toDateTime64 } from '@notify/event-log';
import { RecorderModule } from '@notify/recorder-feature';
import { join } from 'node:path';
import {
  committed,
  deliveryEvents,
  drain,
  emit,
  MESSAGES,
  prefill,
  runStage,
  stageContext,
  workspace,
} from './stage-harness';

/** What the recorder writes per insert at most (BatchingEventWriter's maxEvents in RecorderModule). */
const INSERT_ROWS = 20_000;

async function baseline(): Promise<void> {
  const ws = await workspace();
  const client = await openClickHouseClient({
    database: 'bench',
    path: join(ws.config.dataDir, 'clickhouse'),
  });
  await client.command({ query: 'CREATE DATABASE bench' });
  await client.command({
    query: `CREATE TABLE bench.raw_events (account_id String, env_id String, tracking_id String,
      event_id String, event_time DateTime64(3, 'UTC'), event LowCardinality(String),
      channel LowCardinality(String), fields Map(String, String))
      ENGINE = MergeTree ORDER BY (account_id, env_id, tracking_id, event_time)`,
  });
  const rows = Array.from({ length: MESSAGES }, (_, i) => deliveryEvents(ws.tenant, i)).flat();
  let inserted = 0;
  const result = drain(() => inserted, rows.length);
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    const batch = rows.slice(start, start + INSERT_ROWS);
    await client.insert({
      table: 'bench.raw_events',
      format: 'JSONEachRow',
      values: batch.map((e) => ({
        account_id: e.accountId,
        env_id: e.envId,
        tracking_id: e.trackingId,
        event_id: e.eventId,
        event_time: toDateTime64(e.time),
        event: e.event,
        channel: e.channel ?? '',
        fields: Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k, String(v)])),
      })),
    });
    inserted += batch.length;
  }
  emit({ what: 'recorder baseline', ...(await result) });
  await client.close();
  await ws.remove();
}

async function stage(): Promise<void> {
  const ws = await workspace();
  await prefill(ws, [Topics.events], MESSAGES, (i) =>
    deliveryEvents(ws.tenant, i).map((value) => ({ topic: Topics.events, key: value.trackingId, value })),
  );
  const app = await stageContext(ws, [EventLogModule.forRoot(), RecorderModule]);
  const bus = app.get<EmbeddedBus>(EVENT_BUS);
  await app.init();
  emit({
    what: 'recorder',
    ...(await drain(() => committed(bus, Groups.recorder, Topics.events), MESSAGES * 4)),
  });
  await app.close();
  await ws.remove();
}

runStage({ baseline, stage });
