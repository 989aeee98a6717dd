import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, SmsConversationsStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { aLastSms, aScope, aTwilioSmsForm, FakeClock, tempDir, testLogger } from '@notify/testing';
import { InboundSmsUseCase } from './inbound-sms.usecase';

describe('InboundSmsUseCase', () => {
  const scope = aScope();
  const user = '+14155552671';
  let store: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let conversations: SmsConversationsStore;
  let clock: FakeClock;
  let published: DeliveryEvent[];
  let inbound: InboundSmsUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-inbound-sms-');
    remove = dir.remove;
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    conversations = new SmsConversationsStore(store);
    clock = new FakeClock();
    published = [];
    const bus = {
      publish: async (messages: readonly OutgoingMessage<DeliveryEvent>[]) =>
        void published.push(...messages.map((m) => m.value)),
    } as unknown as EventBus;
    inbound = new InboundSmsUseCase(
      new DeliveryEventsPublisher(bus, clock),
      conversations,
      loadAppConfig({ SMS_RATES: 'US=0.0083,*=0.05' }),
      clock,
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('logs a message on a record of its own, for the user and type of the last SMS to the number', async () => {
    await conversations.remember(scope, user, aLastSms());
    const { trackingId, reply } = await inbound.receive(scope, aTwilioSmsForm({ Body: 'Running late' }));
    expect(reply).toBeUndefined();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      trackingId,
      event: 'sms_inbound',
      channel: 'sms',
      time: clock.now(),
      userId: 'u-1',
      notificationId: 'welcome',
      webhookExtras: { lastTrackingId: 'trk-1' },
      fields: {
        received_at: '2026-01-05T09:00:00.000Z',
        type: 'welcome',
        user_id: 'u-1',
        user_number: user,
        sms_inbound_from: user,
        sms_inbound_to: '+15005550006',
        sms_inbound_text: 'Running late',
      },
    });
  });

  it('logs a message from a number nobody texted without a user or a reply', async () => {
    await inbound.receive(scope, aTwilioSmsForm({ From: '+14155550000' }));
    expect(published).toHaveLength(1);
    expect(published[0]?.userId).toBeUndefined();
    expect(published[0]?.webhookExtras).toBeUndefined();
  });

  it('keeps an MMS’s media as a JSON list', async () => {
    await inbound.receive(
      scope,
      aTwilioSmsForm({ NumMedia: '1', MediaUrl0: 'https://media.test/1', MediaContentType0: 'image/png' }),
    );
    expect(published[0]?.fields['sms_inbound_media']).toBe(
      '[{"url":"https://media.test/1","contentType":"image/png"}]',
    );
  });

  it('answers the last send’s autoReply once, logged on that send, however many replies come', async () => {
    await conversations.remember(scope, user, aLastSms({ autoReply: 'We got it' }));
    expect((await inbound.receive(scope, aTwilioSmsForm())).reply).toBe('We got it');
    clock.advance(60_000);
    expect((await inbound.receive(scope, aTwilioSmsForm())).reply).toBeUndefined();
    const replied = published.filter((e) => e.event === 'sms_replied');
    expect(replied).toHaveLength(1);
    expect(replied[0]).toMatchObject({
      trackingId: 'trk-1',
      fields: {
        sms_replied_at: '2026-01-05T09:00:00.000Z',
        sms_replied_to: user,
        sms_replied_text: 'We got it',
        sms_replied_segments: 1,
        // A US number, one segment: SMS_RATES' US price.
        sms_replied_cost: 0.0083,
      },
    });
    expect(published.filter((e) => e.event === 'sms_inbound')).toHaveLength(2);
  });

  it('opts the number out of this environment on STOP and back in on START, logging each', async () => {
    await inbound.receive(scope, aTwilioSmsForm({ Body: ' stop ' }));
    expect(await conversations.isOptedOut(scope, user)).toBe(true);
    expect(await conversations.isOptedOut(aScope({ envId: 'env-2' }), user)).toBe(false);
    expect(published[0]).toMatchObject({
      event: 'sms_unsubscribe',
      fields: { sms_unsubscribe_keyword: 'STOP', sms_unsubscribe_from: user },
    });
    clock.advance(1_000);
    await inbound.receive(scope, aTwilioSmsForm({ Body: 'START' }));
    expect(await conversations.isOptedOut(scope, user)).toBe(false);
    expect(published[1]).toMatchObject({
      event: 'sms_subscribe',
      fields: { sms_subscribe_at: '2026-01-05T09:00:01.000Z', sms_subscribe_keyword: 'START' },
    });
  });
});
