import { Kafka, logLevel } from 'kafkajs';
import { testBackends } from './backends';

/** Topics named from `uniqueName` in the test process `pid`: `<label>-<pid>-<time>-<random>.…`. */
export const testTopicsOf = (pid: number) => new RegExp(`(^|-)${pid}-[0-9a-z]+-[0-9a-z]+\\.`);

/** The most a file's cleanup may take: a busy broker keeps its topics rather than slow the run. */
const BUDGET_MS = 5_000;

/**
 * Deletes the Kafka topics a test process created. A full test run makes thousands of partitions
 * on the one local broker; left there, they slow its controller until topic creation and group
 * joins time out for the suites that run last. Called after each test file, once its services are
 * gone. A broker that is not running (a suite that needs none) or is too busy leaves them be.
 */
export async function deleteTestTopics(pid = process.pid): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, BUDGET_MS)));
  await Promise.race([deleteTopicsOf(pid), budget]);
  clearTimeout(timer);
}

async function deleteTopicsOf(pid: number): Promise<void> {
  const admin = new Kafka({
    brokers: testBackends.kafkaBrokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: BUDGET_MS,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const mine = testTopicsOf(pid);
    const topics = (await admin.listTopics()).filter((topic) => mine.test(topic));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: BUDGET_MS });
  } catch {
    // No broker here, or it did not answer in time: the topics stay until the broker is reset.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
