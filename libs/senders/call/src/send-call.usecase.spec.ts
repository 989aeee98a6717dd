import { DeliveryLedgerStore, EmbeddedCoordinationStore } from '@notify/cache';
import type { EventBus } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { AppConfig } from '@notify/platform';
import type { TwilioResolver } from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import { aCallJob, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { SendCallUseCase, sayTwiml } from './send-call.usecase';

describe('sayTwiml', () => {
  it('speaks the message as text: markup in it cannot add TwiML verbs', () => {
    expect(sayTwiml('Hi Tom & Jerry <3')).toBe('<Response><Say>Hi Tom &amp; Jerry &lt;3</Say></Response>');
    expect(sayTwiml('</Say><Dial>+15551234567</Dial><Say>')).toBe(
      '<Response><Say>&lt;/Say&gt;&lt;Dial&gt;+15551234567&lt;/Dial&gt;&lt;Say&gt;</Say></Response>',
    );
    expect(sayTwiml(`it's "quoted"`)).toBe('<Response><Say>it&apos;s &quot;quoted&quot;</Say></Response>');
  });
});

/** Twilio's Calls API as the use case calls it: each create answers the next queued outcome. */
class FakeTwilioCalls {
  readonly created: { to: string; from: string; twiml: string }[] = [];
  private readonly outcomes: Error[] = [];

  refuse(...errors: Error[]): void {
    this.outcomes.push(...errors);
  }

  create(call: { to: string; from: string; twiml: string }): Promise<{ sid: string }> {
    this.created.push(call);
    const refusal = this.outcomes.shift();
    return refusal === undefined
      ? Promise.resolve({ sid: `CA${this.created.length}` })
      : Promise.reject(refusal);
  }
}

const refusal = (status: number, code: number) =>
  Object.assign(new Error(`Twilio says ${code}`), { status, code });

describe('SendCallUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let calls: FakeTwilioCalls;
  let clock: FakeClock;
  let call: SendCallUseCase;

  beforeEach(async () => {
    dir = await tempDir('call-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    calls = new FakeTwilioCalls();
    clock = new FakeClock();
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    const accounts = {
      for: () =>
        Promise.resolve({
          account: { accountSid: 'AC1', authToken: 'secret', fromNumber: '+15005550001', numbers: [] },
          client: { calls },
        }),
    } as unknown as TwilioResolver;
    call = new SendCallUseCase(
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      accounts,
      events,
      { http: {} } as unknown as AppConfig,
      testLogger(),
      clock,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('places a call that speaks the message and logs call_sent at the clock’s time', async () => {
    await call.execute(aCallJob());
    expect(calls.created).toEqual([
      expect.objectContaining({
        to: '+15005550006',
        from: '+15005550001',
        twiml: sayTwiml('Your code is 1 2 3 4'),
      }),
    ]);
    expect(bus.names()).toEqual(['call_sent']);
    expect(bus.events()[0]?.fields).toEqual({
      call_sent_at: new Date(clock.now()).toISOString(),
      call_sent_after: 1_000,
      call_sent_from: '+15005550001',
    });
  });

  it('logs a refusal with Twilio’s code when the log names it, else Unknown', async () => {
    calls.refuse(refusal(400, 13224), refusal(403, 12345));
    await call.execute(aCallJob({ trackingId: 't-1' }));
    await call.execute(aCallJob({ trackingId: 't-2' }));
    expect(bus.names()).toEqual(['call_failed', 'call_failed']);
    expect(bus.events().map((e) => e.fields.call_failed_code)).toEqual(['13224', 'Unknown']);
  });

  it('places a redelivered job’s call once and announces its outcome again', async () => {
    await call.execute(aCallJob());
    await call.execute(aCallJob());
    expect(calls.created).toHaveLength(1);
    expect(bus.names()).toEqual(['call_sent', 'call_sent']);
  });

  it('retries a refusal that may pass (a server error) and logs the call placed', async () => {
    calls.refuse(refusal(503, 20500));
    await call.execute(aCallJob());
    expect(calls.created).toHaveLength(2);
    expect(bus.names()).toEqual(['call_sent']);
  });
});
