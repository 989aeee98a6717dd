// One-shot operator command: puts the messages of dead-letter topics back onto their topics, once
// their cause is fixed (deploy/OPERATIONS.md, "Dead letters").
//   node dist/apps/replay-dead-letters/src/main.js send.requests [delivery.email ...]
// With the embedded bus (the all-in-one service), stop the service first: its data directory
// serves one process at a time. Consumers are idempotent, so a replayed message that had in fact
// been handled before changes nothing.
import 'reflect-metadata';
import { createEventBus } from '@notify/bus';
import { CHANNELS, Topics } from '@notify/domain';
import { createLogger, InvalidConfigError, loadAppConfig } from '@notify/platform';

const KNOWN = [Topics.sendRequests, Topics.events, ...CHANNELS.map((c) => Topics.delivery(c))];

async function main(topics: readonly string[]): Promise<void> {
  const unknown = topics.filter((t) => !KNOWN.includes(t));
  if (topics.length === 0 || unknown.length > 0) {
    throw new InvalidConfigError([
      `usage: replay-dead-letters <topic>... (topics: ${KNOWN.join(', ')})${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`,
    ]);
  }
  const config = loadAppConfig();
  const logger = createLogger({ level: config.log.level, service: 'replay-dead-letters' });
  const bus = createEventBus(config, logger);
  try {
    for (const topic of topics) {
      const moved = await bus.replayDeadLetters(topic);
      logger.info({ topic, moved }, `replayed ${moved} dead letters onto ${topic}`);
      process.stdout.write(`${topic}: ${moved} replayed\n`);
    }
  } finally {
    await bus.close();
    logger.flush();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `replay-dead-letters: ${error instanceof InvalidConfigError ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
