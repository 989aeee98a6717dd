import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, SmsConversationsStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent, TenantScope, TwilioForm } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import type { TwilioAccounts } from '@notify/providers';
import type { AccountRepository } from '@notify/store';
import { aLastSms, aScope, aTwilioSmsForm, FakeClock, tempDir, testLogger } from '@notify/testing';
import { UnauthorizedError } from '@notify/util';
import twilio from 'twilio';
import { InboundSmsUseCase } from './inbound-sms.usecase';
import { type SignedTwilioRequest, TwilioCallbacksUseCase } from './twilio-callbacks.usecase';

const AUTH_TOKEN = 'auth-token-of-env-1';
const ACCOUNT_SID = 'AC00000000000000000000000000000001';
const URL = 'https://notify.example.test/inbound/twilio/sms';

/** A request as Twilio signs it with `token` (the environment's own unless told). */
const signed = (form: TwilioForm, url = URL, token = AUTH_TOKEN): SignedTwilioRequest => ({
  form,
  url,
  signature: twilio.getExpectedTwilioSignature(token, url, form as Record<string, string>),
});

describe('TwilioCallbacksUseCase', () => {
  const scope = aScope();
  let store: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let conversations: SmsConversationsStore;
  let clock: FakeClock;
  let published: DeliveryEvent[];
  let callbacks: TwilioCallbacksUseCase;

  beforeEach(async () => {
    const dir = await tempDir('notify-twilio-callbacks-');
    remove = dir.remove;
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    conversations = new SmsConversationsStore(store);
    clock = new FakeClock();
    published = [];
    const bus = {
      publish: async (messages: readonly OutgoingMessage<DeliveryEvent>[]) =>
        void published.push(...messages.map((m) => m.value)),
    } as unknown as EventBus;
    const events = new DeliveryEventsPublisher(bus, clock);
    // Environment env-1 has a Twilio account, after another one that may sign its callbacks (a
    // sandbox account of a key rotated out); env-2 exists without one.
    const accounts = {
      callbackAccountsOf: async (of: TenantScope) =>
        of.envId === scope.envId
          ? [
              { accountSid: 'AC-rotated-out', authToken: 'another token' },
              { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN },
            ]
          : [],
    } as unknown as TwilioAccounts;
    const environments = {
      findEnvironment: async (envId: string) =>
        ['env-1', 'env-2'].includes(envId) ? { accountId: scope.accountId, envId } : undefined,
    } as unknown as AccountRepository;
    callbacks = new TwilioCallbacksUseCase(
      accounts,
      environments,
      conversations,
      new InboundSmsUseCase(events, conversations, loadAppConfig({}), clock),
      events,
      loadAppConfig({}),
      clock,
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  describe('inbound messages', () => {
    it('records a signed message for the environment the URL names', async () => {
      const url = `${URL}?envId=env-1`;
      expect(
        await callbacks.inboundSms({ ...signed(aTwilioSmsForm(), url), envId: 'env-1' }),
      ).toBeUndefined();
      expect(published).toMatchObject([{ event: 'sms_inbound', ...scope }]);
    });

    it('finds the environment that last texted the sender from the number, and answers its autoReply', async () => {
      await conversations.remember(scope, '+14155552671', aLastSms({ autoReply: 'Thanks' }));
      expect(await callbacks.inboundSms(signed(aTwilioSmsForm()))).toBe('Thanks');
      expect(published.map((e) => e.event)).toEqual(['sms_inbound', 'sms_replied']);
    });

    it('refuses, recording nothing, a message it cannot place, signed with another token, or unsigned', async () => {
      const form = aTwilioSmsForm();
      await expect(callbacks.inboundSms(signed(form))).rejects.toThrow(UnauthorizedError);
      await expect(callbacks.inboundSms({ ...signed(form), envId: 'env-9' })).rejects.toThrow(
        UnauthorizedError,
      );
      await expect(callbacks.inboundSms({ ...signed(form), envId: 'env-2' })).rejects.toThrow(
        UnauthorizedError,
      );
      await conversations.remember(scope, '+14155552671', aLastSms());
      await expect(callbacks.inboundSms(signed(form, URL, 'another-token'))).rejects.toThrow(
        UnauthorizedError,
      );
      await expect(callbacks.inboundSms({ ...signed(form), signature: undefined })).rejects.toThrow(
        UnauthorizedError,
      );
      await expect(
        callbacks.inboundSms(signed({ ...form, AccountSid: 'AC00000000000000000000000000000002' })),
      ).rejects.toThrow(UnauthorizedError);
      expect(published).toEqual([]);
    });
  });

  describe('status callbacks', () => {
    const subject = { ...scope, trackingId: 'trk-1', userId: 'u-1', notificationId: 'welcome' };
    const receivedAt = Date.parse('2026-01-05T08:59:58.000Z');

    it('logs a delivered message on its send, with the time since the send came in', async () => {
      const form = { AccountSid: ACCOUNT_SID, MessageSid: 'SM1', MessageStatus: 'delivered' };
      await callbacks.status({ ...signed(form), channel: 'sms', subject: { ...subject, receivedAt } });
      expect(published).toEqual([
        expect.objectContaining({
          ...subject,
          event: 'sms_delivered',
          channel: 'sms',
          time: clock.now(),
          fields: { sms_delivered_at: '2026-01-05T09:00:00.000Z', sms_delivered_after: 2_000 },
        }),
      ]);
    });

    it('logs a completed call as delivered, and nothing for an intermediate status', async () => {
      await callbacks.status({
        ...signed({ AccountSid: ACCOUNT_SID, CallSid: 'CA1', CallStatus: 'ringing' }),
        channel: 'call',
        subject: { ...subject, receivedAt },
      });
      expect(published).toEqual([]);
      await callbacks.status({
        ...signed({ AccountSid: ACCOUNT_SID, CallSid: 'CA1', CallStatus: 'completed', CallDuration: '30' }),
        channel: 'call',
        subject: { ...subject, receivedAt },
      });
      expect(published).toMatchObject([
        { event: 'call_delivered', channel: 'call', fields: { call_delivered_code: 'COMPLETED' } },
      ]);
    });

    it('accepts a receipt for a URL with a port signed with or without it, as Twilio may sign it', async () => {
      const form = { AccountSid: ACCOUNT_SID, MessageSid: 'SM1', MessageStatus: 'delivered' };
      const status = (request: SignedTwilioRequest) =>
        callbacks.status({ ...request, channel: 'sms', subject: { ...subject, receivedAt } });
      await status(signed(form, 'https://notify.example.test:8443/inbound/twilio/status'));
      await status({
        ...signed(form, 'https://notify.example.test/inbound/twilio/status'),
        url: 'https://notify.example.test:443/inbound/twilio/status',
      });
      expect(published.map((e) => e.event)).toEqual(['sms_delivered', 'sms_delivered']);
    });

    it('refuses a receipt for a URL with a port signed with another token or for another URL', async () => {
      const form = { AccountSid: ACCOUNT_SID, MessageSid: 'SM1', MessageStatus: 'delivered' };
      const url = 'https://notify.example.test:8443/inbound/twilio/status';
      const status = (request: SignedTwilioRequest) =>
        callbacks.status({ ...request, channel: 'sms', subject: { ...subject, receivedAt } });
      await expect(status(signed(form, url, 'another-token'))).rejects.toThrow(UnauthorizedError);
      await expect(
        status({ ...signed(form, 'https://notify.example.test:9443/inbound/twilio/status'), url }),
      ).rejects.toThrow(UnauthorizedError);
      await expect(status({ ...signed(form, url), signature: '' })).rejects.toThrow(UnauthorizedError);
      expect(published).toEqual([]);
    });

    it('refuses a callback not signed for the send’s environment', async () => {
      const form = { AccountSid: ACCOUNT_SID, MessageSid: 'SM1', MessageStatus: 'delivered' };
      await expect(
        callbacks.status({
          ...signed(form),
          channel: 'sms',
          subject: { ...subject, envId: 'env-2', receivedAt },
        }),
      ).rejects.toThrow(UnauthorizedError);
      await expect(
        callbacks.status({
          ...signed(form, 'https://elsewhere.test/inbound/twilio/status'),
          url: `${URL}/status`,
          channel: 'sms',
          subject: { ...subject, receivedAt },
        }),
      ).rejects.toThrow(UnauthorizedError);
      expect(published).toEqual([]);
    });
  });
});
