import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmailRepliesStore, EmbeddedCoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  type InboundAddress,
  replyAddress,
  replyKey,
  type TenantScope,
} from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import type { InboundAddressRepository, SendingDomainRepository } from '@notify/store';
import { anInboundEmail, aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { InboundEmailUseCase, type Recipient } from './inbound-email.usecase';

const SECRETS_KEY = Buffer.alloc(32, 7);
const TRACKING_ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

const anAddress = (address: Partial<InboundAddress>): InboundAddress => ({
  fullAddress: 'acme@in.notify.test',
  prefix: 'acme',
  domain: 'in.notify.test',
  type: 'builtin',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...address,
});

describe('InboundEmailUseCase', () => {
  const scope = aScope();
  const other = aScope({ envId: 'env-2' });
  // Two environments' addresses: env-1's built-in one and its custom one, env-2's built-in one.
  const addresses = new Map<string, { scope: TenantScope; address: InboundAddress }>([
    ['acme@in.notify.test', { scope, address: anAddress({}) }],
    [
      'support@in.notify.test',
      {
        scope,
        address: anAddress({ fullAddress: 'support@in.notify.test', prefix: 'support', type: 'custom' }),
      },
    ],
    [
      'beta@in.notify.test',
      { scope: other, address: anAddress({ fullAddress: 'beta@in.notify.test', prefix: 'beta' }) },
    ],
  ]);
  let store: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let replies: EmailRepliesStore;
  let clock: FakeClock;
  let published: DeliveryEvent[];

  const useCase = (env: Record<string, string> = {}) => {
    const bus = {
      publish: async (messages: readonly OutgoingMessage<DeliveryEvent>[]) =>
        void published.push(...messages.map((m) => m.value)),
    } as unknown as EventBus;
    return new InboundEmailUseCase(
      { resolve: async (address: string) => addresses.get(address) } as unknown as InboundAddressRepository,
      {
        everywhere: async (domain: string) => (domain === 'acme.test' ? [{ domain }] : []),
      } as unknown as SendingDomainRepository,
      new DeliveryEventsPublisher(bus, clock),
      replies,
      loadAppConfig({
        SECRETS_KEY: SECRETS_KEY.toString('base64'),
        INBOUND_MAIL_DOMAIN: 'notify.test',
        ...env,
      }),
      clock,
    );
  };
  const replyTo = (to: TenantScope, prefix = 'acme') =>
    replyAddress({ prefix, domain: 'in.notify.test' }, to, TRACKING_ID, replyKey(SECRETS_KEY)) ?? '';

  beforeEach(async () => {
    const dir = await tempDir('notify-inbound-email-');
    remove = dir.remove;
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    replies = new EmailRepliesStore(store);
    clock = new FakeClock();
    published = [];
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('takes inbound addresses, reply addresses this environment signed, and the service’s own mailboxes', async () => {
    const inbound = useCase();
    expect(await inbound.recipient('Support@in.notify.test')).toMatchObject({
      kind: 'inbox',
      scope,
      resolution: 'custom',
    });
    expect(await inbound.recipient(replyTo(scope))).toMatchObject({
      kind: 'inbox',
      resolution: 'reply',
      trackingId: TRACKING_ID,
    });
    expect(await inbound.recipient('bounces+abc@notify.test')).toEqual({ kind: 'service' });
    expect(await inbound.recipient('postmaster@notify.test')).toEqual({ kind: 'service' });
    // A token signed for another environment, and an unknown address, reach nobody.
    expect(await inbound.recipient(replyTo(other))).toBeUndefined();
    expect(await inbound.recipient('nobody@in.notify.test')).toBeUndefined();
    expect(inbound.takesReports(['someone@else.test', 'bounces+x@notify.test'])).toBe(true);
    expect(inbound.takesReports(['someone@else.test'])).toBe(false);
  });

  it('takes a reply to mail sent before a SECRETS_KEY rotation while the old key is in SECRETS_PREVIOUS_KEYS', async () => {
    const rotated = { SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') };
    expect(await useCase(rotated).recipient(replyTo(scope))).toBeUndefined();
    expect(
      await useCase({ ...rotated, SECRETS_PREVIOUS_KEYS: SECRETS_KEY.toString('base64') }).recipient(
        replyTo(scope),
      ),
    ).toMatchObject({ kind: 'inbox', resolution: 'reply', trackingId: TRACKING_ID });
  });

  it('takes the reports mailbox on the return path of a sending domain only', async () => {
    const inbound = useCase();
    expect(await inbound.recipient('bounces@notify-bounces.acme.test')).toEqual({ kind: 'service' });
    expect(await inbound.recipient('bounces@notify-bounces.stranger.test')).toBeUndefined();
  });

  it('takes any recipient as the service’s without a mail domain of its own', async () => {
    const inbound = useCase({ INBOUND_MAIL_DOMAIN: '' });
    expect(await inbound.recipient('whoever@anywhere.test')).toEqual({ kind: 'service' });
    expect(inbound.takesReports(['whoever@anywhere.test'])).toBe(true);
  });

  it('logs a reply on the message it answers, for that message’s user and type while the note lasts', async () => {
    const inbound = useCase();
    await replies.remember(scope, TRACKING_ID, { userId: 'u-1', notificationId: 'welcome' });
    const recipient = (await inbound.recipient(replyTo(scope))) as Recipient;
    expect(await inbound.receive(anInboundEmail({ subject: 'Re: hi' }), [recipient])).toBe(1);
    expect(published).toEqual([
      expect.objectContaining({
        ...scope,
        trackingId: TRACKING_ID,
        userId: 'u-1',
        notificationId: 'welcome',
        event: 'email_inbound',
        channel: 'email',
        time: clock.now(),
        fields: expect.objectContaining({
          email_inbound_subject: 'Re: hi',
          email_inbound_resolution_type: 'reply',
        }),
        webhookExtras: expect.objectContaining({ to: ['inbox@in.example.test'] }),
      }),
    ]);
  });

  it('logs other mail once per environment it reached, on a record of its own', async () => {
    const inbound = useCase();
    const recipients = await Promise.all(
      ['acme@in.notify.test', 'support@in.notify.test', 'beta@in.notify.test', 'postmaster@notify.test'].map(
        async (address) => (await inbound.recipient(address)) as Recipient,
      ),
    );
    expect(await inbound.receive(anInboundEmail(), recipients)).toBe(2);
    expect(published.map((e) => e.envId).sort()).toEqual(['env-1', 'env-2']);
    const own = published.find((e) => e.envId === 'env-1');
    expect(own?.trackingId).toMatch(/^[0-9a-f-]{36}$/);
    expect(own?.fields).toMatchObject({
      received_at: '2026-01-05T09:00:00.000Z',
      clientId: 'env-1',
      email_inbound_inbox: 'acme@in.notify.test',
      email_inbound_resolution_type: 'builtin',
    });
    expect(own?.userId).toBeUndefined();
  });
});
