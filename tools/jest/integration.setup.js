// Integration tests talk to real backends started by tools/infra; give them room.
jest.setTimeout(60_000);
// A suite that failed before stopping its services must not leave them running (nor keep Jest
// from exiting): whatever is left is killed once the file's own afterAll hooks have run.
afterAll(() => require('../../libs/testing/src/service-process.ts').killRunningServices());
// Then the Kafka topics the file created go: thousands of leftover partitions slow the local
// broker's controller until the suites that run last time out creating topics and joining groups.
afterAll(() => require('../../libs/testing/src/kafka-topics.ts').deleteTestTopics());
