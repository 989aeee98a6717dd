import type { EventBus, OutgoingMessage } from '@notify/bus';
import { DigestWindows, EmbeddedCoordinationStore, ScheduledSends, SuppressionCounters } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type DeliveryEvent, normalizeSend, type SendRequested, Topics } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import {
  AccountRepository,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  PreferenceRepository,
  TemplateRepository,
  UserRepository,
} from '@notify/store';
import { tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { systemClock } from '@notify/util';
import { ChannelDispatcher } from './channel.dispatcher';
import { HoldForDigestUseCase } from './hold-for-digest.usecase';
import { RouteSendUseCase } from './route-send.usecase';
import { SendContextLoader } from './send-context.loader';

const MB = 1_048_576;
const scope = { accountId: 'acc', envId: 'env' };

describe('RouteSendUseCase: digests', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let documents: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let published: OutgoingMessage[];
  let router: RouteSendUseCase;

  beforeEach(async () => {
    dir = await tempDir('notify-router-');
    documents = new EmbeddedDocumentStore(join(dir.path, 'store'));
    coordination = new EmbeddedCoordinationStore({
      path: join(dir.path, 'coordination'),
      logger: testLogger('coordination'),
    });
    published = [];
    const bus = { publish: async (messages: readonly OutgoingMessage[]) => void published.push(...messages) };
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus);
    const config = loadAppConfig({});
    router = new RouteSendUseCase(
      new SendContextLoader(
        new AccountRepository(documents),
        new UserRepository(documents, new SecretBox(randomBytes(32))),
        new NotificationTypeRepository(documents),
        new PreferenceRepository(documents),
      ),
      new ChannelDispatcher(new TemplateRepository(documents), events, config),
      new HoldForDigestUseCase(
        new DigestWindows(coordination, { windowBytes: MB, environmentBytes: 8 * MB }),
        events,
      ),
      new ScheduledSends(coordination, config.limits),
      new SuppressionCounters(coordination),
      events,
      bus as unknown as EventBus,
      systemClock,
    );
    const types = new NotificationTypeRepository(documents);
    const now = new Date().toISOString();
    await types.ensure(scope, 'news', ['EMAIL', 'SMS', 'CALL'], now);
    await types.update(
      scope,
      'news',
      {
        options: {
          EMAIL: { defaultDeliveryOption: 'hourly' },
          SMS: { defaultDeliveryOption: 'hourly' },
          CALL: { defaultDeliveryOption: 'hourly' },
        },
      },
      now,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await documents.close();
    await dir.remove();
  });

  const route = (trackingId: string, blob: string) => {
    const receivedAt = Date.now();
    const request: SendRequested = {
      trackingId,
      ...scope,
      receivedAt,
      test: false,
      source: 'send',
      client: {},
      request: '{}',
      send: normalizeSend(
        {
          type: 'news',
          to: { id: 'u', email: 'u@example.com', number: '+14155552671' },
          parameters: { blob },
          email: { subject: 's', html: '<p>{{blob}}</p>' },
          sms: { message: 'm' },
          call: { message: 'c' },
        },
        receivedAt,
        { scheduleAheadMs: 86_400_000 },
      ),
    };
    return router.execute(request);
  };
  const failures = (trackingId: string) =>
    published
      .filter((m) => m.topic === Topics.events)
      .map((m) => m.value as DeliveryEvent)
      .filter((e) => e.trackingId === trackingId && e.event.endsWith('_failed'))
      .map((e) => e.fields);

  it("holds sends for each channel's digest, and logs one that would pass the window's cap with that channel's own code", async () => {
    await route('first', 'x'.repeat(0.6 * MB));
    expect(failures('first')).toEqual([]);
    // Held, not sent: no job reached a sender.
    expect(published.filter((m) => m.topic !== Topics.events)).toEqual([]);

    await route('second', 'x'.repeat(0.6 * MB));
    const internal = expect.stringMatching(/^DIGEST_WINDOW_FULL: .*1 MB/);
    expect(failures('second')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email_failed_code: 'UNDETERMINED_BOUNCE',
          email_failed_internal: internal,
        }),
        expect.objectContaining({ sms_failed_code: 'Unknown', sms_failed_internal: internal }),
        expect.objectContaining({ call_failed_code: 'Unknown', call_failed_internal: internal }),
      ]),
    );
    expect(failures('second')).toHaveLength(3);
    // A small send still joins the window.
    await route('third', 'small');
    expect(failures('third')).toEqual([]);
  });
});
