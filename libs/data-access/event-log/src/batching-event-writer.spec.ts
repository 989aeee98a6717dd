import type { DeliveryEvent } from '@notify/domain';
import { aDeliveryEvent } from '@notify/testing';
import { BatchingEventWriter } from './batching-event-writer';
import type { EventLog } from './event-log.port';
import { sleep } from '@notify/testing';

const event = (id: number) => aDeliveryEvent({ eventId: `e${id}`, trackingId: `t${id}`, time: id });

function recordingLog(fail?: (batch: readonly DeliveryEvent[]) => boolean) {
  const inserts: string[][] = [];
  const log: Pick<EventLog, 'append'> = {
    append: async (events) => {
      await sleep(5);
      if (fail?.(events)) throw new Error('insert failed');
      inserts.push(events.map((e) => e.eventId));
    },
  };
  return { inserts, log: log as EventLog };
}

describe('BatchingEventWriter', () => {
  it('coalesces concurrent writes into one insert after the delay', async () => {
    const { inserts, log } = recordingLog();
    const writer = new BatchingEventWriter(log, { maxEvents: 1_000, maxDelayMs: 20 });
    await Promise.all([
      writer.write([event(1)]),
      writer.write([event(2), event(3)]),
      writer.write([event(4)]),
    ]);
    expect(inserts).toEqual([['e1', 'e2', 'e3', 'e4']]);
  });

  it('flushes at once when the size bound is reached, and batches what arrives meanwhile', async () => {
    const { inserts, log } = recordingLog();
    const writer = new BatchingEventWriter(log, { maxEvents: 2, maxDelayMs: 10_000 });
    const first = writer.write([event(1), event(2)]);
    const second = writer.write([event(3)]);
    const third = writer.write([event(4)]);
    await Promise.all([first, second, third]);
    expect(inserts).toEqual([
      ['e1', 'e2'],
      ['e3', 'e4'],
    ]);
  });

  it('rejects every writer of a failed insert, so the bus redelivers their events', async () => {
    const { log } = recordingLog(() => true);
    const writer = new BatchingEventWriter(log, { maxEvents: 10, maxDelayMs: 1 });
    const results = await Promise.allSettled([writer.write([event(1)]), writer.write([event(2)])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
