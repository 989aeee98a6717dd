import { eventually, tempDir, testLogger } from '@notify/testing';
import { z } from 'zod';
import { EmbeddedBus } from './embedded.bus';

const Item = z.object({ n: z.number() });

describe('EmbeddedBus: what a consumer publishes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let bus: EmbeddedBus;

  beforeEach(async () => {
    dir = await tempDir('notify-bus-unit-');
    bus = new EmbeddedBus({ path: dir.path, partitions: 2, logger: testLogger('bus') });
  });

  afterEach(async () => {
    await bus.close();
    await dir.remove();
  });

  it('reaches other consumers only once the batch that published it is done, with its offset', async () => {
    const forwarded: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let published = false;
    await bus.subscribe({
      group: 'forwarder',
      topic: 'in',
      schema: Item,
      handle: async ({ value }) => {
        await bus.publish([{ topic: 'out', key: 'k', value }]);
        published = true;
        await gate;
      },
    });
    await bus.subscribe({
      group: 'reader',
      topic: 'out',
      schema: Item,
      handle: async ({ value }) => {
        forwarded.push(value.n);
      },
    });
    await bus.publish([{ topic: 'in', key: 'k', value: { n: 1 } }]);
    await eventually(() => expect(published).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(forwarded).toEqual([]);

    release();
    await eventually(() => expect(forwarded).toEqual([1]));
  });

  it("keeps a batch's output and its offset across a restart, and runs the batch once", async () => {
    let runs = 0;
    const forwarder = {
      group: 'forwarder',
      topic: 'in',
      schema: Item,
      handle: async ({ value }: { value: { n: number } }) => {
        runs++;
        await bus.publish([{ topic: 'out', key: 'k', value: { n: value.n * 10 } }]);
      },
    };
    await bus.subscribe(forwarder);
    await bus.publish([{ topic: 'in', key: 'k', value: { n: 4 } }]);
    await eventually(() => expect(runs).toBe(1));
    await bus.close();

    bus = new EmbeddedBus({ path: dir.path, partitions: 2, logger: testLogger('bus') });
    await bus.subscribe(forwarder);
    const forwarded: number[] = [];
    await bus.subscribe({
      group: 'reader',
      topic: 'out',
      schema: Item,
      handle: async ({ value }) => {
        forwarded.push(value.n);
      },
    });
    await eventually(() => expect(forwarded).toEqual([40]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(1);
  });
});
