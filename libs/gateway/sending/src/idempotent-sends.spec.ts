import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, IdempotencyRecordsStore, ScheduledSendsStore } from '@notify/cache';
import type { SendRequested } from '@notify/domain';
import type { Tenant } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import type { SenderNumbers } from '@notify/providers';
import type { UserRepository } from '@notify/store';
import { aScope, aSend, FakeClock, FakeSenderNumbers, tempDir, testLogger } from '@notify/testing';
import { ConflictError, InvalidRequestError } from '@notify/util';
import { AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';
import { IdempotentSends } from './idempotent-sends';

/** The bus as far as accepting a send needs it: what was published, in order. */
class FakeBus {
  readonly published: SendRequested[] = [];
  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    for (const { value } of messages) this.published.push(value as SendRequested);
  }
}

describe('IdempotentSends', () => {
  const tenant: Tenant = { ...aScope(), keyId: 'key-1', test: false };
  const clock = new FakeClock();
  const origin: SendOrigin = { source: 'send', request: '{}', receivedAt: clock.now() };
  const body = { type: 'welcome', to: { id: 'ann', email: 'ann@example.test' } };
  let dir: { path: string; remove: () => Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: FakeBus;
  let sends: IdempotentSends;

  beforeEach(async () => {
    dir = await tempDir('notify-idempotency-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new FakeBus();
    const accept = new AcceptSendUseCase(
      bus as unknown as EventBus,
      { get: () => Promise.resolve(undefined) } as unknown as UserRepository,
      new ScheduledSendsStore(coordination, loadAppConfig({}).limits),
      testLogger(),
      clock,
      // These sends name no sms.from: no number is allowed.
      new FakeSenderNumbers() as unknown as SenderNumbers,
    );
    sends = new IdempotentSends(new IdempotencyRecordsStore(coordination), accept);
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('publishes a send without a key every time', async () => {
    const first = await sends.execute(tenant, aSend(), origin, body, undefined);
    const second = await sends.execute(tenant, aSend(), origin, body, undefined);
    expect(first.trackingId).not.toBe(second.trackingId);
    expect(bus.published).toHaveLength(2);
  });

  it('tells a key whose send was answered from one not used or not answered yet', async () => {
    expect(await sends.answered(tenant, 'key-z')).toBe(false);
    await sends.execute(tenant, aSend(), origin, body, 'key-z');
    expect(await sends.answered(tenant, 'key-z')).toBe(true);
    expect(await sends.answered({ ...tenant, envId: 'env-other' }, 'key-z')).toBe(false);
    expect(await sends.answered(tenant, 'bad key')).toBe(false);
  });

  it('answers a repeated key with the first answer and publishes nothing again', async () => {
    const first = await sends.execute(tenant, aSend(), origin, body, 'key-a');
    const again = await sends.execute(tenant, aSend(), origin, body, 'key-a');
    expect(again).toEqual(first);
    expect(bus.published.map((m) => m.trackingId)).toEqual([first.trackingId]);
  });

  it('keeps keys apart per environment', async () => {
    const first = await sends.execute(tenant, aSend(), origin, body, 'key-a');
    const other = await sends.execute({ ...tenant, envId: 'env-2' }, aSend(), origin, body, 'key-a');
    expect(other.trackingId).not.toBe(first.trackingId);
    expect(bus.published).toHaveLength(2);
  });

  it('refuses the key with another body, or on another path, with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    await sends.execute(tenant, aSend(), origin, body, 'key-b');
    const otherBody = sends.execute(tenant, aSend(), origin, { ...body, type: 'other' }, 'key-b');
    await expect(otherBody).rejects.toBeInstanceOf(ConflictError);
    await expect(otherBody).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    const otherPath = sends.execute(tenant, aSend(), { ...origin, source: 'email' }, body, 'key-b');
    await expect(otherPath).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(bus.published).toHaveLength(1);
  });

  it('refuses a key that is not 1 to 255 printable ASCII characters with 400, before anything is sent', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'é'])
      await expect(sends.execute(tenant, aSend(), origin, body, key)).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
    expect(bus.published).toEqual([]);
  });

  it('publishes a retry again under the same tracking id when the first attempt died before its answer was recorded', async () => {
    const records = new IdempotencyRecordsStore(coordination);
    const first = await sends.execute(tenant, aSend(), origin, body, 'key-c');
    const claimed = await records.claim(tenant, 'key-c', { fingerprint: 'unused', trackingId: 'unused' });
    await records.answered(tenant, 'key-c', {
      fingerprint: claimed.fingerprint,
      trackingId: claimed.trackingId,
    });
    const retry = await sends.execute(tenant, aSend(), origin, body, 'key-c');
    expect(retry.trackingId).toBe(first.trackingId);
    expect(bus.published.map((m) => m.trackingId)).toEqual([first.trackingId, first.trackingId]);
  });
});
