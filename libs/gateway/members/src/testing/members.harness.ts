import type { EventBus, OutgoingMessage } from '@notify/bus';
import type { ScheduledSendsStore } from '@notify/cache';
import type { EmailChange, Invitation, Role, SendRequested } from '@notify/domain';
import { AcceptSendUseCase } from '@notify/gateway-sending';
import { loadAppConfig, SecretBox } from '@notify/platform';
import type { SenderNumbers } from '@notify/providers';
import {
  AccountRepository,
  AutoJoinRepository,
  Collections,
  EmbeddedDocumentStore,
  InvitationRepository,
  MembershipRepository,
  PeopleRepository,
  UserRepository,
} from '@notify/store';
import { anEnvironment, FakeClock, FakeSenderNumbers, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { MemberMail } from '../member-mail';
import { SignedTokens } from '../signed-tokens';

export const ACCOUNT = 'acct-1';
export const NOW = '2026-01-01T00:00:00.000Z';

/**
 * The members area over the embedded document store in a temporary directory: account `acct-1`
 * with two environments (`env-1` the older) and its owner `owner@example.com`; the mail it sends
 * is accepted onto a bus that keeps what it is given.
 */
export async function membersHarness(env: Record<string, string> = {}) {
  const dir = await tempDir('notify-members-');
  const store = new EmbeddedDocumentStore(dir.path);
  const config = loadAppConfig({
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://notify.example/base',
    ...env,
  });
  const clock = new FakeClock();
  const sent: SendRequested[] = [];
  const bus = {
    publish: (messages: readonly OutgoingMessage[]) => {
      sent.push(...messages.map((m) => m.value as SendRequested));
      return Promise.resolve();
    },
  };
  const accept = new AcceptSendUseCase(
    bus as unknown as EventBus,
    new UserRepository(store, new SecretBox(randomBytes(32))),
    // Invitations are never scheduled: the queue of scheduled sends is not reached.
    {} as ScheduledSendsStore,
    testLogger('gateway'),
    clock,
    // Member mail names no sms.from: no number is allowed.
    new FakeSenderNumbers() as unknown as SenderNumbers,
  );
  const accounts = new AccountRepository(store);
  const people = new PeopleRepository(store);
  const memberships = new MembershipRepository(store);
  const invitations = new InvitationRepository(store);
  const autoJoin = new AutoJoinRepository(store);
  const tokens = new SignedTokens(config, clock);
  const mail = new MemberMail(accounts, accept, config, clock);

  await accounts.createAccount({ accountId: ACCOUNT, name: 'Acme', createdAt: NOW });
  await accounts.createEnvironment(
    anEnvironment({ accountId: ACCOUNT, envId: 'env-2', createdAt: '2026-01-02T00:00:00.000Z' }),
    10,
  );
  await accounts.createEnvironment(anEnvironment({ accountId: ACCOUNT, envId: 'env-1', createdAt: NOW }), 10);

  /** Makes `email` a member of the account with `role`; answers their userId. */
  const join = async (email: string, role: Role, accountId = ACCOUNT) => {
    const { person } = await people.findOrCreate(email, NOW);
    await memberships.add({ accountId, userId: person.userId, role, createdAt: NOW, updatedAt: NOW });
    return person.userId;
  };
  const ownerId = await join('owner@example.com', 'owner');

  return {
    store,
    config,
    clock,
    sent,
    accounts,
    people,
    memberships,
    invitations,
    autoJoin,
    tokens,
    mail,
    join,
    ownerId,
    /** The pending invitation of `email` to the account, as stored. */
    pendingInvitation: (email: string, accountId = ACCOUNT) =>
      store.collection(Collections.invitations).get([accountId, email]) as Promise<Invitation | undefined>,
    /** The person's pending email change, as stored. */
    pendingEmailChange: (userId: string) =>
      store.collection(Collections.emailChanges).get([userId]) as Promise<EmailChange | undefined>,
    /** The token of the last link to `path` mailed to `to`. */
    tokenMailedTo(to: string, path: string): string {
      const mailed = sent.filter((s) => s.send.userId === to).at(-1);
      const match = JSON.stringify(mailed?.send ?? {}).match(new RegExp(`${path}\\?token=([A-Za-z0-9_.-]+)`));
      if (match?.[1] === undefined) throw new Error(`no ${path} link mailed to ${to}`);
      return match[1];
    },
    async close() {
      await store.close();
      await dir.remove();
    },
  };
}

export type MembersHarness = Awaited<ReturnType<typeof membersHarness>>;
