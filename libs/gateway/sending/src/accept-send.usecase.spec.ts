import type { EventBus } from '@notify/bus';
import { normalizeSend, type SendBody, type User } from '@notify/domain';
import type { UserRepository } from '@notify/store';
import { testLogger } from '@notify/testing';
import type { Tenant } from '@notify/gateway-auth';
import { AcceptSendUseCase, CONTACT_LOOKUP_MS } from './accept-send.usecase';

const tenant: Tenant = { accountId: 'a', envId: 'e', keyId: 'k', test: false };
const origin = { source: 'send' as const, request: '{}', receivedAt: 0 };
const send = (body: Omit<SendBody, 'type'>) =>
  normalizeSend({ type: 't', ...body }, 0, { scheduleAheadMs: 86_400_000 });

describe('AcceptSendUseCase', () => {
  const publish = jest.fn(() => Promise.resolve());
  const get = jest.fn<Promise<User | undefined>, unknown[]>();
  const useCase = new AcceptSendUseCase(
    { publish } as unknown as EventBus,
    { get } as unknown as UserRepository,
    testLogger(),
  );

  beforeEach(() => {
    publish.mockClear();
    get.mockReset();
  });

  it('reads nothing when the send carries the contacts its channels need', async () => {
    const accepted = await useCase.execute(
      tenant,
      send({ to: { id: 'u', number: '+14155552671' }, forceChannels: ['SMS'] }),
      origin,
    );
    expect(accepted.messages).toEqual([]);
    expect(get).not.toHaveBeenCalled();
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('warns of a forced channel neither the send nor the stored user can be reached on', async () => {
    get.mockResolvedValue({ id: 'u', email: 'u@example.com' } as User);
    const accepted = await useCase.execute(
      tenant,
      send({ to: { id: 'u' }, forceChannels: ['SMS', 'EMAIL'] }),
      origin,
    );
    expect(accepted.messages).toEqual(['SMS is skipped: the user has no phone number (to.number).']);
    expect(get).toHaveBeenCalledWith(tenant, 'u');
  });

  it('answers without the warning when the store is slow or failing, since acceptance needs only the bus', async () => {
    get.mockReturnValue(new Promise(() => undefined));
    const started = Date.now();
    const slow = await useCase.execute(tenant, send({ to: { id: 'u' }, forceChannels: ['SMS'] }), origin);
    expect(slow.messages).toEqual([]);
    expect(Date.now() - started).toBeLessThan(CONTACT_LOOKUP_MS + 1_000);

    get.mockRejectedValue(new Error('store down'));
    const failing = await useCase.execute(tenant, send({ to: { id: 'u' }, forceChannels: ['SMS'] }), origin);
    expect(failing.messages).toEqual([]);
    expect(publish).toHaveBeenCalledTimes(2);
  });
});
