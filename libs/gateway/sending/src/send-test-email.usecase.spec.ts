import type { EventBus } from '@notify/bus';
import { EmbeddedCoordinationStore, ScheduledSendsStore } from '@notify/cache';
import { type SendRequested, testEmailBodySchema } from '@notify/domain';
import type { KeyCaller, MemberCaller } from '@notify/gateway-auth';
import { loadAppConfig, SecretBox } from '@notify/platform';
import {
  EmbeddedDocumentStore,
  MembershipRepository,
  NotificationTypeRepository,
  PeopleRepository,
  UserRepository,
} from '@notify/store';
import { FakeClock, FakeSenderNumbers, RecordingBus, tempDir, testLogger } from '@notify/testing';
import { ForbiddenError, InvalidRequestError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { AcceptSendUseCase } from './accept-send.usecase';
import { SendTestEmailUseCase } from './send-test-email.usecase';
import type { SenderNumbers } from '@notify/providers';

const NOW = '2026-01-01T00:00:00.000Z';
const tenant = { accountId: 'acct-a', envId: 'env-a', keyId: 'key_1', test: false };
const member = (email: string): MemberCaller => ({
  kind: 'member',
  accountId: 'acct-a',
  userId: 'usr_ann',
  email,
  role: 'member',
});
const key: KeyCaller = { ...tenant, kind: 'key', keyType: 'secret' };
const origin = { source: 'email' as const, request: '{}', receivedAt: Date.parse(NOW) };
const body = (over: Record<string, unknown> = {}) =>
  testEmailBodySchema.parse({
    notificationId: 'welcome',
    to: 'ann@example.com',
    subject: 'Hi {{firstName}}',
    html: '<p>{{#each items}}{{name}}{{/each}}</p>',
    fromAddress: '',
    fromName: 'Acme',
    ...over,
  });

describe('SendTestEmailUseCase', () => {
  let dirs: { path: string; remove: () => Promise<void> }[];
  let documents: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let types: NotificationTypeRepository;
  let useCase: SendTestEmailUseCase;

  beforeEach(async () => {
    dirs = [await tempDir('notify-test-email-'), await tempDir('notify-test-email-cache-')];
    documents = new EmbeddedDocumentStore(dirs[0]?.path ?? '');
    coordination = new EmbeddedCoordinationStore({ path: dirs[1]?.path ?? '', logger: testLogger() });
    bus = new RecordingBus();
    const config = loadAppConfig({});
    const people = new PeopleRepository(documents);
    const memberships = new MembershipRepository(documents);
    types = new NotificationTypeRepository(documents);
    const { person } = await people.findOrCreate('ann@example.com', NOW);
    await memberships.add({
      accountId: 'acct-a',
      userId: person.userId,
      role: 'member',
      createdAt: NOW,
      updatedAt: NOW,
    });
    await people.findOrCreate('stranger@example.com', NOW);
    const accept = new AcceptSendUseCase(
      bus as unknown as EventBus,
      new UserRepository(documents, new SecretBox(randomBytes(32))),
      new ScheduledSendsStore(coordination, config.limits),
      testLogger(),
      new FakeClock(),
      // A test email is never an SMS: no number is allowed.
      new FakeSenderNumbers() as unknown as SenderNumbers,
    );
    useCase = new SendTestEmailUseCase(accept, people, memberships, types, config);
  });

  afterEach(async () => {
    await documents.close();
    await coordination.close();
    for (const dir of dirs) await dir.remove();
  });

  const published = () => bus.published.map((message) => message.value as SendRequested);

  it("sends to a member's own address through the accept path, merge tags given sample values", async () => {
    await types.ensure(tenant, 'welcome', ['EMAIL'], NOW);
    const answer = await useCase.execute({ tenant, caller: member('Ann@Example.com'), body: body(), origin });
    expect(answer).toEqual({ trackingId: expect.any(String), messages: [] });
    const [sent] = published();
    expect(sent).toMatchObject({
      trackingId: answer.trackingId,
      accountId: 'acct-a',
      envId: 'env-a',
      source: 'email',
      send: {
        notificationId: 'welcome',
        userId: 'ann@example.com',
        forceChannels: ['EMAIL'],
        email: { subject: 'Hi {{firstName}}' },
        options: { email: { fromName: 'Acme' } },
        parameters: { firstName: '[firstName]', items: [{ name: '[items.name]' }] },
      },
    });
  });

  it("refuses another address for a member, and a non-member's for a key (403), sending nothing", async () => {
    for (const [caller, to] of [
      [member('ann@example.com'), 'bob@example.com'],
      [key, 'stranger@example.com'],
      [key, 'nobody@example.com'],
    ] as const) {
      await expect(useCase.execute({ tenant, caller, body: body({ to }), origin })).rejects.toMatchObject({
        code: 'RECIPIENT_NOT_ALLOWED',
      });
      await expect(useCase.execute({ tenant, caller, body: body({ to }), origin })).rejects.toBeInstanceOf(
        ForbiddenError,
      );
    }
    expect(published()).toEqual([]);
  });

  it('lets a key send to a member of its account', async () => {
    await types.ensure(tenant, 'welcome', ['EMAIL'], NOW);
    expect((await useCase.execute({ tenant, caller: key, body: body(), origin })).messages).toEqual([]);
    expect(published()).toHaveLength(1);
  });

  it('warns about an unknown or disabled notification type and sends all the same', async () => {
    const unknown = await useCase.execute({
      tenant,
      caller: key,
      body: body({ notificationId: 'nope' }),
      origin,
    });
    expect(unknown.messages).toEqual([expect.stringContaining('notification type "nope" does not exist')]);
    await types.ensure(tenant, 'off', ['EMAIL'], NOW);
    await types.update(tenant, 'off', { enabled: false }, NOW);
    const disabled = await useCase.execute({
      tenant,
      caller: key,
      body: body({ notificationId: 'off' }),
      origin,
    });
    expect(disabled.messages).toEqual([expect.stringContaining('"off" is disabled')]);
    expect(published()).toHaveLength(2);
  });

  it('answers content that does not parse with a 400 naming the field, sending nothing', async () => {
    await expect(
      useCase.execute({ tenant, caller: key, body: body({ subject: 'Hi {{name' }), origin }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(published()).toEqual([]);
  });

  it("sends content whose tags name a prototype without touching the process's objects", async () => {
    const html =
      '<p>{{__proto__.fromAddress}}{{#each __proto__}}{{envId}}{{/each}}{{constructor.prototype.envId}}</p>';
    await useCase.execute({ tenant, caller: key, body: body({ html }), origin });
    const plain: Record<string, unknown> = {};
    expect(plain['fromAddress']).toBeUndefined();
    expect(plain['envId']).toBeUndefined();
    const [sent] = published();
    expect(sent?.send).toMatchObject({ email: { html }, parameters: { firstName: '[firstName]' } });
    expect(JSON.stringify(sent)).not.toContain('[__proto__');
  });
});
