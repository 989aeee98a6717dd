import {
  EmbeddedCoordinationStore,
  type WebhookAttempt,
  WebhookAttemptsStore,
  WebhookDeliveriesStore,
} from '@notify/cache';
import { EmbeddedDocumentStore, WebhookEndpointRepository } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';

/** The embedded document and coordination stores in a temp directory, with one endpoint `ep-1` of `scope`. */
export async function deliveriesHarness() {
  const dir = await tempDir('notify-webhook-deliveries-');
  const documents = new EmbeddedDocumentStore(`${dir.path}/documents`);
  const coordination = new EmbeddedCoordinationStore({
    path: `${dir.path}/coordination`,
    logger: testLogger('coordination'),
  });
  const clock = new FakeClock();
  const scope = { accountId: 'acct', envId: 'env-a' };
  const endpoints = new WebhookEndpointRepository(documents);
  await endpoints.create(
    scope,
    {
      endpointId: 'ep-1',
      webhook: 'https://hooks.example.com/in',
      events: ['SMS_FAILED'],
      secret: 'sealed',
      isDefault: false,
      createdAt: new Date(clock.now()).toISOString(),
      updatedAt: new Date(clock.now()).toISOString(),
    },
    20,
  );
  const attempts = new WebhookAttemptsStore(coordination);
  return {
    scope,
    clock,
    endpoints,
    attempts,
    queue: new WebhookDeliveriesStore(coordination),
    /** An attempt of `msgId` to `ep-1` at the clock's time, as the dispatcher records it. */
    anAttempt: (attempt: Partial<WebhookAttempt> = {}): WebhookAttempt => ({
      msgId: 'msg_1',
      eventType: 'SMS_FAILED',
      trackingId: 'trk-1',
      at: clock.now(),
      statusCode: 200,
      body: 'thanks',
      durationMs: 8,
      status: 'delivered',
      ...attempt,
    }),
    async close() {
      await coordination.close();
      await documents.close();
      await dir.remove();
    },
  };
}
