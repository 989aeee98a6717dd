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
    const theirs = `ct-${process.pid + 1}-${Date.now().toString(36)}.send.requests`;
    await admin.createTopics({
      waitForLeaders: true,
      topics: [mine, theirs].map((topic) => ({ topic, numPartitions: 1 })),
    });
    await deleteTestTopics();
    const left = await admin.listTopics();
    expect(left).not.toContain(mine);
    expect(left).toContain(theirs);
    await admin.deleteTopics({ topics: [theirs] });
  });
});
