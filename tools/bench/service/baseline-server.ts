// The accept benchmark's baseline: a bare Fastify server that parses the same JSON body and
// answers 200 with a tracking id. What remains between it and the service is the service's work.
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';

const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
app.post('/send', async (request) => {
  if (typeof request.body !== 'object' || request.body === null) throw new Error('no body');
  return { trackingId: randomUUID(), messages: [] };
});
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }).then(
  (address) => process.stdout.write(`listening ${address}\n`),
  (error: unknown) => {
    process.stderr.write(String(error));
    process.exit(1);
  },
);
