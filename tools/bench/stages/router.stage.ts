// The router alone, draining a pre-filled `send.requests` (the gateway's output for MESSAGES sends,
// each to a new user), with its real modules on the embedded backends. Baseline (`baseline`
// argument): the same drain through the bus with only the I/O the router needs per send (read the
// environment, user, type and preferences, store the user, publish a job and two events).
import { EVENT_BUS, type EmbeddedBus } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { Groups, type SendRequested, Topics } from '@notify/domain';
import { SecretBox } from '@notify/platform';
import { RouterModule } from '@notify/router-feature';
import {
  AccountRepository,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  PreferenceRepository,
  StoreModule,
  UserRepository,
} from '@notify/store';
import { join } from 'node:path';
import { z } from 'zod';
import {
  committed,
  drain,
  emit,
  keyOf,
  MESSAGES,
  openBus,
  prefill,
  routeTopics,
  runStage,
  sendRequested,
  stageContext,
  workspace,
} from './stage-harness';

async function main(mode: string): Promise<void> {
  const ws = await workspace();
  await prefill(ws, routeTopics, MESSAGES, (i) => {
    const value = sendRequested(ws.tenant, i);
    return [{ topic: Topics.sendRequests, key: keyOf(ws.tenant, value.send.userId), value }];
  });
  if (mode === 'baseline') {
    const bus = openBus(ws);
    const store = new EmbeddedDocumentStore(join(ws.config.dataDir, 'documents'));
    const [accounts, users, types, preferences] = [
      new AccountRepository(store),
      // The baseline's users carry no Slack token: nothing is sealed, so no key is needed.
      new UserRepository(store, SecretBox.unconfigured()),
      new NotificationTypeRepository(store),
      new PreferenceRepository(store),
    ];
    await bus.subscribe({
      group: 'baseline',
      topic: Topics.sendRequests,
      schema: z.unknown(),
      concurrency: 32,
      handle: async ({ value }) => {
        const request = value as SendRequested;
        const scope = { accountId: request.accountId, envId: request.envId };
        await Promise.all([
          accounts.getEnvironment(scope.accountId, scope.envId),
          users.get(scope, request.send.userId),
          types.get(scope, request.send.notificationId),
          preferences.get(scope, request.send.userId),
        ]);
        await users.identify(
          scope,
          request.send.userId,
          request.send.recipient,
          new Date().toISOString(),
          false,
        );
        const event = { trackingId: request.trackingId, fields: { processed_at: new Date().toISOString() } };
        await bus.publish([
          {
            topic: Topics.delivery('EMAIL'),
            key: keyOf(scope, request.send.userId),
            value: { ...request.send.email, to: request.send.recipient.email },
          },
          { topic: Topics.events, key: request.trackingId, value: event },
          { topic: Topics.events, key: request.trackingId, value: event },
        ]);
      },
    });
    emit({
      what: 'router baseline',
      ...(await drain(() => committed(bus, 'baseline', Topics.sendRequests), MESSAGES)),
    });
    await bus.close();
    await store.close();
  } else {
    const app = await stageContext(ws, [
      StoreModule.forRoot(),
      CoordinationModule.forRoot(),
      DeliveryEventsModule,
      RouterModule,
    ]);
    const bus = app.get<EmbeddedBus>(EVENT_BUS);
    await app.init();
    emit({
      what: 'router',
      ...(await drain(() => committed(bus, Groups.router, Topics.sendRequests), MESSAGES)),
    });
    await app.close();
  }
  await ws.remove();
}

runStage({ baseline: () => main('baseline'), stage: () => main('stage') });
