// One connect-write-read per backend, so a CI run shows plainly that each really started
// (the port suites test behaviour; this tests presence, and fails fast with a clear message).
import { requireBackend, testBackends, uniqueName } from '@notify/testing';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';

describe('local backends (tools/infra)', () => {
  it('Kafka: creates a topic, produces and consumes a message', async () => {
    await requireBackend('kafka');
    const kafka = new Kafka({
      clientId: 'smoke',
      brokers: testBackends.kafkaBrokers,
      logLevel: logLevel.NOTHING,
    });
    const topic = uniqueName('smoke');
    const admin = kafka.admin();
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: topic, maxWaitTimeInMs: 200 });
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, messages: [{ key: 'k', value: 'hello kafka' }] });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const received = new Promise<string>((resolve) => {
        void consumer.run({ eachMessage: async ({ message }) => resolve(message.value?.toString() ?? '') });
      });
      expect(await received).toBe('hello kafka');
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  });

  it('MongoDB wire server: inserts and reads a document', async () => {
    await requireBackend('mongo');
    const connection = await mongoose
      .createConnection(testBackends.mongoUri, { serverSelectionTimeoutMS: 5_000 })
      .asPromise();
    try {
      const collection = connection.collection(uniqueName('smoke'));
      await collection.insertOne({ hello: 'mongo' });
      expect(await collection.findOne({}, { projection: { _id: 0 } })).toEqual({ hello: 'mongo' });
    } finally {
      await connection.close();
    }
  });

  it('Redis: writes and reads a key', async () => {
    await requireBackend('redis');
    const redis = new Redis(testBackends.redisUrl, { lazyConnect: true });
    try {
      await redis.connect();
      const key = uniqueName('smoke');
      await redis.set(key, 'hello redis', 'PX', 10_000);
      expect(await redis.get(key)).toBe('hello redis');
    } finally {
      redis.disconnect();
    }
  });
});
