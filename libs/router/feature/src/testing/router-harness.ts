import type { EventBus, OutgoingMessage } from '@notify/bus';
import {
  ComponentChangesStore,
  DigestWindowsStore,
  EmbeddedCoordinationStore,
  EnvironmentSettingsChangesStore,
  NotificationTypeChangesStore,
  ScheduledSendsStore,
  SuppressionCountersStore,
} from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type DeliveryEvent, type LogFields, Topics } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import {
  AccountRepository,
  ComponentRepository,
  EmbeddedDocumentStore,
  NotificationTypeRepository,
  PreferenceRepository,
  TemplateRepository,
  UserRepository,
} from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ChannelDispatcher } from '../channel.dispatcher';
import { ComponentCache } from '../component-cache';
import { EnvironmentSettingsCache } from '../environment-settings-cache';
import { HoldForDigestUseCase } from '../hold-for-digest.usecase';
import { RouteSendUseCase } from '../route-send.usecase';
import { SendContextLoader } from '../send-context.loader';
import { SendDigestUseCase } from '../send-digest.usecase';
import { TypeCache } from '../type-cache';

const MB = 1_048_576;

/**
 * The router's units over the embedded document and coordination stores in a temporary directory,
 * a bus that records what is published, and a clock the test moves.
 */
export async function routerHarness(
  limits = { windowBytes: MB, environmentBytes: 8 * MB },
  env: Record<string, string> = {},
) {
  const dir = await tempDir('notify-router-');
  const documents = new EmbeddedDocumentStore(join(dir.path, 'store'));
  const coordination = new EmbeddedCoordinationStore({
    path: join(dir.path, 'coordination'),
    logger: testLogger('coordination'),
  });
  const published: OutgoingMessage[] = [];
  const bus = {
    publish: async (messages: readonly OutgoingMessage[]) => void published.push(...messages),
  } as unknown as EventBus;
  const clock = new FakeClock();
  const config = loadAppConfig(env);
  const events = new DeliveryEventsPublisher(bus, clock);
  const types = new NotificationTypeRepository(documents);
  const templates = new TemplateRepository(documents);
  const users = new UserRepository(documents, new SecretBox(randomBytes(32)));
  const accounts = new AccountRepository(documents);
  const environmentCache = new EnvironmentSettingsCache(
    accounts,
    new EnvironmentSettingsChangesStore(coordination),
    clock,
  );
  const typeCache = new TypeCache(
    types,
    templates,
    new NotificationTypeChangesStore(coordination),
    clock,
    config,
  );
  const contexts = new SendContextLoader(
    environmentCache,
    users,
    typeCache,
    new PreferenceRepository(documents),
  );
  const windows = new DigestWindowsStore(coordination, limits);
  const scheduled = new ScheduledSendsStore(coordination, config.limits);
  const components = new ComponentRepository(documents);
  const componentCache = new ComponentCache(
    components,
    new ComponentChangesStore(coordination),
    clock,
    config,
  );
  const dispatcher = new ChannelDispatcher(typeCache, events, config, componentCache);
  const holdForDigest = new HoldForDigestUseCase(windows, events);
  const route = new RouteSendUseCase(
    contexts,
    dispatcher,
    holdForDigest,
    scheduled,
    new SuppressionCountersStore(coordination),
    events,
    bus,
    clock,
  );
  const digest = new SendDigestUseCase(contexts, dispatcher, events, bus, clock);
  const deliveryEvents = () =>
    published.filter((m) => m.topic === Topics.events).map((m) => m.value as DeliveryEvent);
  return {
    clock,
    coordination,
    accounts,
    environmentCache,
    typeCache,
    types,
    templates,
    components,
    componentCache,
    users,
    windows,
    scheduled,
    dispatcher,
    holdForDigest,
    route,
    digest,
    published,
    /** The jobs handed to senders. */
    jobs: () => published.filter((m) => m.topic !== Topics.events),
    /** The fields of each event `name` logged on `trackingId`. */
    fieldsOf: (trackingId: string, name: string): LogFields[] =>
      deliveryEvents()
        .filter((e) => e.trackingId === trackingId && e.event === name)
        .map((e) => e.fields),
    events: deliveryEvents,
    async close() {
      await coordination.close();
      await documents.close();
      await dir.remove();
    },
  };
}

export type RouterHarness = Awaited<ReturnType<typeof routerHarness>>;
