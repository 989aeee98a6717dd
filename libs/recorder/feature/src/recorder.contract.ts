import 'reflect-metadata';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BusModule, EVENT_BUS, type EventBus } from '@notify/bus';
import { METRIC_SOURCE, type MetricSource, type SeriesRequest, Topics } from '@notify/domain';
import { EventLogModule } from '@notify/event-log';
import { loadAppConfig, PlatformModule } from '@notify/platform';
import { aDeliveryEvent, eventually, tempDir, testLogger } from '@notify/testing';
import { RecorderModule } from './recorder.module';

const HOUR = 3_600_000;

/** The recorder over the real embedded bus and engine: what it appends reaches the insights. */
describe('Recorder → insights (embedded bus and ClickHouse)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let app: INestApplicationContext;

  beforeAll(async () => {
    dir = await tempDir('notify-recorder-');
    const config = loadAppConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent' });
    @Module({})
    class RecorderTestModule {
      static forRoot(): DynamicModule {
        return {
          module: RecorderTestModule,
          imports: [
            PlatformModule.forRoot(config, testLogger()),
            BusModule.forRoot(),
            EventLogModule.forRoot(),
            RecorderModule,
          ],
        };
      }
    }
    app = await NestFactory.createApplicationContext(RecorderTestModule.forRoot(), { logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await dir?.remove();
  });

  it('makes the events it records visible through the metric source', async () => {
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const scope = { accountId: 'acc-1', envIds: ['env-1'] };
    const events = [
      aDeliveryEvent({
        eventId: 'e1',
        trackingId: 't1',
        time: now - 5_000,
        event: 'email_sent',
        fields: { email_sent_after: 30 },
      }),
      aDeliveryEvent({
        eventId: 'e2',
        trackingId: 't2',
        time: now - 4_000,
        event: 'email_sent',
        fields: { email_sent_after: 50 },
      }),
      aDeliveryEvent({
        eventId: 'e3',
        trackingId: 't3',
        time: now - 3_000,
        event: 'sms_failed',
        notificationId: 'invoice',
      }),
    ];
    await app
      .get<EventBus>(EVENT_BUS)
      .publish(events.map((value) => ({ topic: Topics.events, key: value.trackingId, value })));

    const window = { startMs: now - HOUR, endMs: now + HOUR };
    const requests: SeriesRequest[] = [
      {
        metric: 'Sent',
        filters: { Channel: 'EMAIL' },
        stat: { kind: 'Sum' },
        periodSeconds: 3600,
        ...window,
      },
      { metric: 'Sent', filters: {}, stat: { kind: 'Average' }, periodSeconds: 60, ...window },
      {
        metric: 'Failed',
        filters: { NotificationId: 'invoice' },
        stat: { kind: 'Sum' },
        periodSeconds: 10,
        ...window,
      },
    ];
    const metrics = app.get<MetricSource>(METRIC_SOURCE);
    await eventually(async () => {
      const [sent, average, failed] = await metrics.series(scope, requests);
      expect(sent?.map((p) => p.value)).toEqual([2]);
      expect(average?.map((p) => p.value)).toEqual([40]);
      expect(failed).toEqual([{ timestampMs: now - 10_000, value: 1 }]);
    });
    expect(await metrics.series({ ...scope, envIds: ['env-2'] }, requests)).toEqual([[], [], []]);
  });
});
