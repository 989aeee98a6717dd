// A consumer in its own process, so a test can SIGKILL it mid-message. Prints `ready` once
// subscribed and `got <id>` per message; in `hang` mode it never finishes its first message.
import { z } from 'zod';
import { openBus } from './bus-harness';

async function main(): Promise<void> {
  const [adapter, where, topic, group, mode] = process.argv.slice(2);
  if ((adapter !== 'embedded' && adapter !== 'kafka') || !where || !topic || !group) {
    throw new Error('usage: consumer.fixture.ts <embedded|kafka> <where> <topic> <group> <hang|stream>');
  }
  const bus = openBus({ adapter, where });
  await bus.subscribe({
    group,
    topic,
    schema: z.object({ id: z.number() }),
    concurrency: 1,
    handle: async ({ value }) => {
      process.stdout.write(`got ${value.id}\n`);
      // A handler stuck on I/O keeps its process alive; so must this one, until the test kills it.
      if (mode === 'hang') await new Promise(() => setInterval(() => undefined, 1_000));
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
