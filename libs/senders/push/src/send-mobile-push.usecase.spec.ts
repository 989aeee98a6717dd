import type { EventBus } from '@notify/bus';
import { DeliveryLedgerStore, EmbeddedCoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { FcmClient, MobilePushResolver } from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import type { UserRepository } from '@notify/store';
import { aMobilePushJob, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { SendMobilePushUseCase } from './send-mobile-push.usecase';

type FcmAnswer = { success: true } | { success: false; error: { code: string; message: string } };

/** FCM as the use case calls it: each device's next queued answer, else success. */
class FakeFcm implements FcmClient {
  readonly requests: string[][] = [];
  private readonly answers = new Map<string, FcmAnswer[]>();

  answer(token: string, ...answers: FcmAnswer[]): void {
    this.answers.set(token, answers);
  }

  sendEach(messages: Parameters<FcmClient['sendEach']>[0]) {
    const tokens = messages.map((m) => ('token' in m ? m.token : ''));
    this.requests.push(tokens);
    const responses = tokens.map((t) => this.answers.get(t)?.shift() ?? { success: true });
    return Promise.resolve({ responses } as unknown as Awaited<ReturnType<FcmClient['sendEach']>>);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The users' push targets, and the dead tokens removed from them. */
class FakeUsers {
  readonly removed: string[] = [];

  removePushTargets(_scope: unknown, _userId: string, { tokens }: { tokens: string[] }): Promise<number> {
    this.removed.push(...tokens);
    return Promise.resolve(tokens.length);
  }
}

const refused = (code: string): FcmAnswer => ({ success: false, error: { code, message: code } });

describe('SendMobilePushUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let fcm: FakeFcm;
  let users: FakeUsers;
  let clock: FakeClock;
  let push: SendMobilePushUseCase;

  beforeEach(async () => {
    dir = await tempDir('push-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    fcm = new FakeFcm();
    users = new FakeUsers();
    clock = new FakeClock();
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    const providers = {
      fcm: () => Promise.resolve(fcm),
      apns: () => Promise.resolve(undefined),
    } as unknown as MobilePushResolver;
    push = new SendMobilePushUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      providers,
      users as unknown as UserRepository,
      events,
      testLogger(),
      clock,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('pushes to the device and logs mobile_push_sent with its token and mobile_push_delivered', async () => {
    await push.execute(aMobilePushJob());
    expect(fcm.requests).toEqual([['fcm-1']]);
    expect(bus.names()).toEqual(['mobile_push_sent', 'mobile_push_delivered']);
    const at = new Date(clock.now()).toISOString();
    expect(bus.events().map((e) => e.fields)).toEqual([
      { mobile_push_sent_at: at, mobile_push_sent_after: 1_000, mobile_push_sent_token: 'fcm-1' },
      { mobile_push_delivered_at: at, mobile_push_delivered_after: 1_000 },
    ]);
  });

  it('logs a dead token as INVALID_FCM_TOKEN with the token, and removes it from the user', async () => {
    fcm.answer('fcm-dead', refused('messaging/registration-token-not-registered'));
    await push.execute(
      aMobilePushJob({
        targets: [
          { type: 'FCM', token: 'fcm-1' },
          { type: 'FCM', token: 'fcm-dead' },
        ],
      }),
    );
    expect(bus.names()).toEqual(['mobile_push_sent', 'mobile_push_delivered', 'mobile_push_failed']);
    expect(bus.events()[2]?.fields).toMatchObject({
      mobile_push_failed_at: new Date(clock.now()).toISOString(),
      mobile_push_failed_code: 'INVALID_FCM_TOKEN',
      mobile_push_failed_token: 'fcm-dead',
    });
    expect(users.removed).toEqual(['fcm-dead']);
  });

  it('pushes a redelivered job once and announces its outcome again', async () => {
    await push.execute(aMobilePushJob());
    await push.execute(aMobilePushJob());
    expect(fcm.requests).toHaveLength(1);
    expect(bus.names()).toEqual([
      'mobile_push_sent',
      'mobile_push_delivered',
      'mobile_push_sent',
      'mobile_push_delivered',
    ]);
  });

  it('retries a device whose refusal may pass, and only that one', async () => {
    fcm.answer('fcm-busy', refused('messaging/internal-error'));
    await push.execute(
      aMobilePushJob({
        targets: [
          { type: 'FCM', token: 'fcm-1' },
          { type: 'FCM', token: 'fcm-busy' },
        ],
      }),
    );
    expect(fcm.requests).toEqual([['fcm-1', 'fcm-busy'], ['fcm-busy']]);
    expect(bus.names()).toEqual([
      'mobile_push_sent',
      'mobile_push_delivered',
      'mobile_push_sent',
      'mobile_push_delivered',
    ]);
    expect(users.removed).toEqual([]);
  });
});
