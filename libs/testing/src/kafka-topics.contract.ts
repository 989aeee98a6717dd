import { Kafka, logLevel } from 'kafkajs';
import { requireBackend, testBackends, uniqueName } from './backends';
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
    const left = await admin.listTopics();
    expect(left).not.toContain(mine);
    expect(left).not.toContain(hyphenated);
    expect(left).toContain(theirs);
    await admin.deleteTopics({ topics: [theirs] });
  });
});
