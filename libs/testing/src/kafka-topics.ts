import { Kafka, logLevel } from 'kafkajs';
import { testBackends } from './backends';

/** Topics named from `uniqueName` in the test process `pid`: `<label>-<pid>-…`. */
export const testTopicsOf = (pid: number) => new RegExp(`^[A-Za-z0-9_]+-${pid}-`);

/**
 * Deletes the Kafka topics a test process created. A full test run makes thousands of partitions
 * on the one local broker; left there, they slow its controller until topic creation and group
 * joins time out for the suites that run last. Called after each test file, once its services are
 * gone. A broker that is not running (a suite that needs none) or is too busy leaves them be.
 */
export async function deleteTestTopics(pid = process.pid): Promise<void> {
  const admin = new Kafka({
    brokers: testBackends.kafkaBrokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 15_000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const mine = testTopicsOf(pid);
    const topics = (await admin.listTopics()).filter((topic) => mine.test(topic));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 15_000 });
  } catch {
    // No broker here, or it did not answer in time: the topics stay until the broker is reset.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
