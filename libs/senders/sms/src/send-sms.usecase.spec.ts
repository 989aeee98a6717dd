import { DeliveryLedgerStore, EmbeddedCoordinationStore, SmsConversationsStore } from '@notify/cache';
import type { EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { AppConfig } from '@notify/platform';
import type { SenderNumbers, TwilioResolver } from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import { anSmsJob, FakeClock, FakeSenderNumbers, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { SendSmsUseCase } from './send-sms.usecase';

/** Twilio's Messages API as the use case calls it: each create answers the next queued outcome. */
class FakeTwilioMessages {
  readonly created: { to: string; from?: string; body?: string }[] = [];
  private readonly outcomes: (Error | string)[] = [];

  answer(...outcomes: (Error | string)[]): void {
    this.outcomes.push(...outcomes);
  }

  create(message: { to: string; from?: string; body?: string }): Promise<{ sid: string }> {
    this.created.push(message);
    const outcome = this.outcomes.shift() ?? `SM${this.created.length}`;
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve({ sid: outcome });
  }

  list(): Promise<never[]> {
    return Promise.resolve([]);
  }
}

const refusal = (status: number, code: number) =>
  Object.assign(new Error(`Twilio says ${code}`), { status, code });

describe('SendSmsUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let messages: FakeTwilioMessages;
  let clock: FakeClock;
  let sms: SendSmsUseCase;

  beforeEach(async () => {
    dir = await tempDir('sms-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    messages = new FakeTwilioMessages();
    clock = new FakeClock();
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    const accounts = {
      for: () =>
        Promise.resolve({
          account: { accountSid: 'AC1', authToken: 'secret', fromNumber: '+15005550001', numbers: [] },
          client: { messages },
        }),
    } as unknown as TwilioResolver;
    const config = {
      http: {},
      pricing: { smsPerSegment: { '*': 0.0079 }, mmsPerMessage: { '*': 0.02 } },
    } as unknown as AppConfig;
    sms = new SendSmsUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      accounts,
      new SmsConversationsStore(coordination),
      events,
      config,
      testLogger(),
      clock,
      new FakeSenderNumbers(['+15005550009']) as unknown as SenderNumbers,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('logs sms_sent with the sender number, segments and Twilio message id at the clock’s time', async () => {
    messages.answer('SM42');
    await sms.execute(anSmsJob());
    expect(messages.created).toEqual([expect.objectContaining({ to: '+15005550006', from: '+15005550001' })]);
    expect(bus.names()).toEqual(['sms_sent']);
    expect(bus.events()[0]?.fields).toMatchObject({
      sms_sent_at: new Date(clock.now()).toISOString(),
      sms_sent_after: 1_000,
      sms_sent_from: '+15005550001',
      sms_sent_segments: 1,
      sms_sent_messageId: 'SM42',
    });
  });

  it('logs a refusal with Twilio’s code when the log names it, else Unknown', async () => {
    messages.answer(refusal(400, 21211), refusal(400, 99999));
    await sms.execute(anSmsJob({ trackingId: 't-1' }));
    await sms.execute(anSmsJob({ trackingId: 't-2' }));
    expect(bus.names()).toEqual(['sms_failed', 'sms_failed']);
    expect(bus.events().map((e) => e.fields)).toEqual([
      expect.objectContaining({
        sms_failed_code: '21211',
        sms_failed_at: new Date(clock.now()).toISOString(),
      }),
      expect.objectContaining({
        sms_failed_code: 'Unknown',
        sms_failed_internal: expect.stringContaining('99999'),
      }),
    ]);
  });

  it('sends from a number the environment may use, and fails one it may not (released since it was accepted)', async () => {
    await sms.execute(anSmsJob({ trackingId: 't-owned', from: '+15005550009' }));
    await sms.execute(anSmsJob({ trackingId: 't-released', from: '+15005550008' }));
    expect(messages.created).toEqual([expect.objectContaining({ from: '+15005550009' })]);
    expect(bus.events().map((e) => e.fields)).toEqual([
      expect.objectContaining({ sms_sent_from: '+15005550009' }),
      expect.objectContaining({
        sms_failed_code: 'Unknown',
        sms_failed_internal: expect.stringContaining('+15005550008'),
      }),
    ]);
  });

  it('sends a redelivered job once and announces its outcome again', async () => {
    await sms.execute(anSmsJob());
    await sms.execute(anSmsJob());
    expect(messages.created).toHaveLength(1);
    expect(bus.names()).toEqual(['sms_sent', 'sms_sent']);
    expect(bus.events()[1]?.eventId).toBe(bus.events()[0]?.eventId);
  });

  it('retries a refusal that may pass (429) and logs the message sent', async () => {
    messages.answer(refusal(429, 20429), 'SM7');
    await sms.execute(anSmsJob());
    expect(messages.created).toHaveLength(2);
    expect(bus.names()).toEqual(['sms_sent']);
    expect(bus.events()[0]?.fields.sms_sent_messageId).toBe('SM7');
  });
});
