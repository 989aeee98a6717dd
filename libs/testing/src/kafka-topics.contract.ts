import { Kafka, logLevel } from 'kafkajs';
import { requireBackend, testBackends, uniqueName } from './backends';
import { eventually } from './eventually';
import { deleteTestTopics } from './kafka-topics';

describe('deleteTestTopics (Kafka)', () => {
  const admin = new Kafka({ brokers: testBackends.kafkaBrokers, logLevel: logLevel.NOTHING }).admin();

  beforeAll(async () => {
    await requireBackend('kafka');
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  it("deletes this test process's topics and leaves other processes' alone", async () => {
    const mine = `${uniqueName('ct')}.send.requests`;
    const hyphenated = `${uniqueName('first-call')}.events`;
    // A pid above Linux's maximum (2^22): no live test process's cleanup can match it.
    const theirs = `ct-4194305-${Date.now().toString(36)}-x.send.requests`;
    await admin.createTopics({
      waitForLeaders: true,
      topics: [mine, hyphenated, theirs].map((topic) => ({ topic, numPartitions: 1 })),
    });
    await deleteTestTopics();
    // A busy broker may finish deleting after the cleanup stopped waiting.
    const left = await eventually(async () => {
      const topics = await admin.listTopics();
      if (topics.includes(mine) || topics.includes(hyphenated)) throw new Error('not deleted yet');
      return topics;
    }, 20_000);
    expect(left).toContain(theirs);
    await admin.deleteTopics({ topics: [theirs] });
  });
});
