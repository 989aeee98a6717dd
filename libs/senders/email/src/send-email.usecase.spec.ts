import type { EventBus } from '@notify/bus';
import { DeliveryLedgerStore, EmailRepliesStore, EmbeddedCoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type AppConfig, ThreadLostError } from '@notify/platform';
import type { SmtpResolver } from '@notify/providers';
import { OnceDelivery } from '@notify/sender-common';
import type { InboundAddressRepository, UserRepository } from '@notify/store';
import { anEmailJob, FakeClock, RecordingBus, tempDir, testLogger } from '@notify/testing';
import type { AttachmentFetcher } from './attachment-fetcher';
import type { RelayPools } from './relay-pools';
import { SendEmailUseCase } from './send-email.usecase';
import type { DomainStanding, SendingDomainKeys } from './sending-domain-keys';

/** An SMTP relay: each message answers the next queued refusal, or is accepted. */
interface SentMail {
  to?: string;
  subject?: string;
  html?: string;
  replyTo?: unknown;
  messageId: string;
  headers?: Record<string, string>;
  envelope?: { from: string };
  dkim?: unknown;
}

class FakeRelay {
  readonly sent: SentMail[] = [];
  private readonly refusals: Error[] = [];

  refuse(...errors: Error[]): void {
    this.refusals.push(...errors);
  }

  sendMail(mail: SentMail) {
    this.sent.push(mail);
    const refusal = this.refusals.shift();
    return refusal === undefined
      ? Promise.resolve({ messageId: mail.messageId, accepted: [mail.to] })
      : Promise.reject(refusal);
  }
}

/** The user records: Ann with her address, and the suppressions set on them. */
class FakeUsers {
  readonly suppressions: { userId: string; suppression: unknown }[] = [];

  get() {
    return Promise.resolve({ email: 'ann@example.test' });
  }

  setEmailSuppression(_scope: unknown, userId: string, suppression: unknown): Promise<void> {
    this.suppressions.push({ userId, suppression });
    return Promise.resolve();
  }
}

const smtpSays = (responseCode: number, response: string) =>
  Object.assign(new Error(response), { responseCode, response, command: 'RCPT TO' });

describe('SendEmailUseCase', () => {
  let dir: { path: string; remove(): Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let bus: RecordingBus;
  let relay: FakeRelay;
  let users: FakeUsers;
  let clock: FakeClock;
  let email: SendEmailUseCase;
  /** The environment's sending domains, by domain. */
  let standings: Map<string, DomainStanding>;

  /**
   * The sender over the fakes. With `tracked`, the installation can sign links (PUBLIC_URL and
   * SECRETS_KEY set) and the environment has a built-in inbound address on the inbound mail domain.
   */
  const sender = (tracked = false) => {
    const events = new DeliveryEventsPublisher(bus as unknown as EventBus, clock);
    const pools = {
      defaultRelay: { options: {}, tenant: false },
      send: (_relay: unknown, mail: SentMail) => relay.sendMail(mail),
    } as unknown as RelayPools;
    const attachments = {
      withAttachments: (_: unknown, send: (files: never[]) => Promise<unknown>) => send([]),
    } as unknown as AttachmentFetcher;
    const config = {
      email: { verifiedDomains: [], fromAddress: 'notify@example.test', fromName: 'Notify' },
      secrets: tracked ? { key: Buffer.alloc(32, 7) } : {},
      http: tracked ? { publicUrl: 'https://notify.example.test' } : {},
      inbound: tracked ? { mailDomain: 'in.example.test' } : {},
    } as unknown as AppConfig;
    const addresses = {
      builtin: () => Promise.resolve({ prefix: 'env-1', domain: 'in.example.test' }),
    } as unknown as InboundAddressRepository;
    return new SendEmailUseCase(
      pools,
      attachments,
      new OnceDelivery(new DeliveryLedgerStore(coordination), events),
      events,
      { relayOf: () => Promise.resolve(undefined) } as unknown as SmtpResolver,
      users as unknown as UserRepository,
      addresses,
      new EmailRepliesStore(coordination),
      {
        of: (_scope: unknown, domain: string) => Promise.resolve(standings.get(domain)),
      } as unknown as SendingDomainKeys,
      config,
      testLogger(),
      clock,
    );
  };

  beforeEach(async () => {
    dir = await tempDir('email-sender-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    bus = new RecordingBus();
    relay = new FakeRelay();
    users = new FakeUsers();
    clock = new FakeClock();
    standings = new Map();
    email = sender();
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  it('hands the email to the relay and logs email_sent and email_delivered at the clock’s time', async () => {
    await email.execute(anEmailJob());
    expect(relay.sent).toEqual([
      expect.objectContaining({
        to: 'ann@example.test',
        subject: 'Welcome',
        messageId: '<trk-1@example.test>',
      }),
    ]);
    expect(bus.names()).toEqual(['email_sent', 'email_delivered']);
    expect(bus.events()[1]?.fields).toEqual({
      email_delivered_at: new Date(clock.now()).toISOString(),
      email_delivered_after: 1_000,
      email_delivered_recipients: 'ann@example.test',
    });
  });

  it('logs a permanent refusal with the spec’s code and suppresses the bounced address', async () => {
    relay.refuse(smtpSays(550, '550 5.1.1 <ann@example.test>: user unknown'));
    await email.execute(anEmailJob());
    expect(relay.sent).toHaveLength(1);
    expect(bus.names()).toEqual(['email_failed']);
    expect(bus.events()[0]?.fields).toMatchObject({
      email_failed_at: new Date(clock.now()).toISOString(),
      email_failed_code: 'PERMANENT_NO_EMAIL_BOUNCE',
      email_failed_recipient: 'ann@example.test',
    });
    expect(users.suppressions).toEqual([
      {
        userId: 'u-1',
        suppression: {
          reason: 'Bounce',
          details: expect.objectContaining({
            code: 'PERMANENT_NO_EMAIL_BOUNCE',
            at: new Date(clock.now()).toISOString(),
          }),
        },
      },
    ]);
  });

  it('signs mail from a verified sending domain with its key and bounces it to the return path', async () => {
    const dkim = { domainName: 'acme.test', keySelector: 'notifyab', privateKey: 'PEM' };
    standings.set('acme.test', {
      status: 'SUCCESS',
      signing: { dkim, envelopeFrom: 'bounces@notify-bounces.acme.test' },
    });
    await email.execute(anEmailJob({ fromAddress: 'billing@acme.test' }));
    expect(relay.sent[0]).toMatchObject({ dkim, envelope: { from: 'bounces@notify-bounces.acme.test' } });
    expect(bus.names()).toEqual(['email_sent', 'email_delivered']);
  });

  it('sends mail from other domains unsigned', async () => {
    await email.execute(anEmailJob({ fromAddress: 'billing@other.test' }));
    expect(relay.sent[0]?.dkim).toBeUndefined();
    expect(relay.sent[0]?.envelope).toBeUndefined();
  });

  it('fails UNVERIFIED_SENDER for mail from a sending domain not verified yet, before the relay', async () => {
    standings.set('acme.test', { status: 'PENDING' });
    await email.execute(anEmailJob({ fromAddress: 'billing@acme.test' }));
    expect(relay.sent).toEqual([]);
    expect(bus.events()[0]?.fields).toMatchObject({
      email_failed_code: 'UNVERIFIED_SENDER',
      email_failed_internal: expect.stringContaining('not verified (PENDING)'),
    });
  });

  it('fails an email without a subject before it reaches the relay', async () => {
    await email.execute(anEmailJob({ subject: ' ' }));
    expect(relay.sent).toEqual([]);
    expect(bus.events().map((e) => e.fields.email_failed_code)).toEqual(['MISSING_EMAIL_SUBJECT']);
  });

  it('sends a redelivered job once and announces its outcome again', async () => {
    await email.execute(anEmailJob());
    await email.execute(anEmailJob());
    expect(relay.sent).toHaveLength(1);
    expect(bus.names()).toEqual(['email_sent', 'email_delivered', 'email_sent', 'email_delivered']);
  });

  it('retries a temporary refusal (4xx) and logs the email sent', async () => {
    relay.refuse(smtpSays(421, '421 4.7.0 try again later'));
    await email.execute(anEmailJob());
    expect(relay.sent).toHaveLength(2);
    expect(bus.names()).toEqual(['email_sent', 'email_delivered']);
    expect(users.suppressions).toEqual([]);
  });

  it('hands a job whose sending thread was lost back to the bus, unlogged, and sends it on redelivery', async () => {
    relay.refuse(new ThreadLostError('smtp-0 stopped during the call: exited with code 1'));
    await expect(email.execute(anEmailJob())).rejects.toBeInstanceOf(ThreadLostError);
    expect(relay.sent).toHaveLength(1);
    expect(bus.names()).toEqual([]);
    await email.execute(anEmailJob());
    expect(relay.sent).toHaveLength(2);
    expect(bus.names()).toEqual(['email_sent', 'email_delivered']);
  });

  describe('tracking', () => {
    const link = 'https://app.example.test/profile/accept_invite?token=secret';
    const html = `<html><body><p><a href="${link}">Join</a></p></body></html>`;
    const trackingId = '0b3c8a9e-5f0d-4f6e-9a51-2d7c1e4b8f10';

    it('rewrites the links of a normal email, adds an open pixel and routes replies to the inbound address', async () => {
      await sender(true).execute(anEmailJob({ trackingId, html }));
      const [mail] = relay.sent;
      expect(mail?.html).toContain('https://notify.example.test/t/c/');
      expect(mail?.html).toContain('https://notify.example.test/t/o/');
      expect(mail?.html).not.toContain(`href="${link}"`);
      expect(mail?.replyTo).toEqual([
        expect.objectContaining({ address: expect.stringMatching(/^env-1\+/) }),
      ]);
    });

    it('sends a sensitive email as composed: its links as they are, no pixel, no reply address', async () => {
      await sender(true).execute(anEmailJob({ trackingId, html, sensitive: true }));
      const [mail] = relay.sent;
      expect(mail?.html).toBe(html);
      expect(mail?.replyTo).toEqual([]);
      // Its outcome is logged like any other's.
      expect(bus.names()).toEqual(['email_sent', 'email_delivered']);
      expect(JSON.stringify(bus.events())).not.toContain('token=');
    });
  });
});
