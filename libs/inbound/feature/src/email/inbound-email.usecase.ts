import { Injectable } from '@nestjs/common';
import { EmailRepliesStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  type InboundEmail,
  inboundEmailExtras,
  inboundEmailFields,
  type InboundResolution,
  looksLikeReplyToken,
  readReplyToken,
  replyKey,
  isReturnPathAddress,
  RETURN_PATH_LABEL,
  REPORTS_MAILBOX,
  splitSubaddress,
  type TenantScope,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, readingKeys } from '@notify/platform';
import type { Clock } from '@notify/util';
import { InboundAddressRepository, SendingDomainRepository } from '@notify/store';
import { type KeyObject, randomUUID } from 'node:crypto';

/** An inbound address a message reached, and how it was matched. */
export interface Destination {
  readonly scope: TenantScope;
  readonly inbox: string;
  readonly resolution: InboundResolution;
  /** The message replied to, for a reply. */
  readonly trackingId?: string;
}

/** What a recipient the listener takes is: one of the service's own mailboxes, or an inbound address. */
export type Recipient = { readonly kind: 'service' } | ({ readonly kind: 'inbox' } & Destination);

/**
 * A message to an environment's inbound address. A reply to one of our emails comes
 * to the built-in address with the message's signed token after `+` and is logged on that message
 * (`email_inbound_resolution_type: reply`); any other mail to an address gets a log record of its
 * own (`builtin` / `custom`). Either way EMAIL_INBOUND carries the webhook payload plus the message's fields.
 */
@Injectable()
export class InboundEmailUseCase {
  /** Reply tokens' keys: SECRETS_KEY's, then those rotated out (replies to older mail still arrive). */
  private readonly keys: readonly KeyObject[];
  private readonly mailDomain: string | undefined;

  constructor(
    private readonly addresses: InboundAddressRepository,
    private readonly sendingDomains: SendingDomainRepository,
    private readonly events: DeliveryEventsPublisher,
    private readonly replies: EmailRepliesStore,
    @InjectConfig() config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.keys = readingKeys(config.secrets).map(replyKey);
    this.mailDomain = config.inbound.mailDomain;
  }

  /**
   * What the listener takes this recipient as, or undefined to refuse it: our reports mailbox and
   * postmaster (RFC 5321 4.5.1), and every inbound address (with any subaddress but a reply token
   * that fails its check). Without a mail domain of our own, reports may come to any address, so
   * all are taken. Looked up once, at RCPT TO: the message is then recorded for what was found.
   */
  async recipient(address: string): Promise<Recipient | undefined> {
    const destination = await this.resolve(address);
    if (destination !== undefined) return { kind: 'inbox', ...destination };
    return this.mailDomain === undefined || (await this.isOurs(address)) ? { kind: 'service' } : undefined;
  }

  /** Whether a bounce or complaint report to these recipients is for us to read. */
  takesReports(recipients: readonly string[]): boolean {
    return (
      this.mailDomain === undefined || recipients.some((r) => this.isReports(splitSubaddress(r).address))
    );
  }

  /**
   * The service's own mailboxes on its mail domain: reports, and postmaster; and the reports
   * mailbox on the return path of a domain some environment added as a sending domain (any other
   * `notify-bounces.` host is not ours to take mail for).
   */
  private async isOurs(recipient: string): Promise<boolean> {
    const { address } = splitSubaddress(recipient);
    if (address === `postmaster@${this.mailDomain}` || address === `${REPORTS_MAILBOX}@${this.mailDomain}`)
      return true;
    if (!isReturnPathAddress(address)) return false;
    const domain = address.slice(address.lastIndexOf('@') + 1 + `${RETURN_PATH_LABEL}.`.length).toLowerCase();
    return (await this.sendingDomains.everywhere(domain, 1)).length > 0;
  }

  /** Our reports mailbox, also on a sending domain's return path (whose CNAME brings its bounces here). */
  private isReports(address: string): boolean {
    return address === `${REPORTS_MAILBOX}@${this.mailDomain}` || isReturnPathAddress(address);
  }

  /** Logs the message once per environment and message it reached; the number of records written. */
  async receive(mail: InboundEmail, recipients: readonly Recipient[]): Promise<number> {
    const now = this.clock.now();
    const destinations = new Map<string, Destination>();
    for (const recipient of recipients) {
      if (recipient.kind !== 'inbox') continue;
      const key = `${recipient.scope.accountId}/${recipient.scope.envId}/${recipient.trackingId ?? ''}`;
      if (!destinations.has(key)) destinations.set(key, recipient);
    }
    const events: DeliveryEvent[] = [];
    for (const destination of destinations.values()) events.push(await this.event(mail, destination, now));
    await this.events.publish(...events);
    return events.length;
  }

  /**
   * Whose mail a recipient is: a reply token (`+` and 39 base32 characters) must be one this
   * environment signed, and is then a reply to that message; otherwise the address decides. A
   * token that fails the check is no destination at all: mail meant for an address's former owner,
   * or made up, reaches nobody.
   */
  private async resolve(recipient: string): Promise<Destination | undefined> {
    const { address, detail } = splitSubaddress(recipient);
    const found = await this.addresses.resolve(address);
    if (found === undefined) return undefined;
    const destination = { scope: found.scope, inbox: found.address.fullAddress };
    if (detail === undefined || !looksLikeReplyToken(detail))
      return { ...destination, resolution: found.address.type };
    // A reply token is checked against the environment it names: a made-up one reaches nobody.
    const trackingId =
      found.address.type === 'builtin' ? readReplyToken(detail, found.scope, this.keys) : undefined;
    return trackingId === undefined ? undefined : { ...destination, resolution: 'reply', trackingId };
  }

  private async event(mail: InboundEmail, destination: Destination, now: number): Promise<DeliveryEvent> {
    const fields = inboundEmailFields(mail, destination.inbox, destination.resolution);
    const { scope } = destination;
    let event: DeliveryEvent;
    if (destination.trackingId !== undefined) {
      // A reply: logged on the message it answers, for that message's user and type while the
      // sender's note of them lasts (EMAIL_REPLY_TTL_MS).
      const reply = await this.replies.find(scope, destination.trackingId);
      event = this.events.event(
        { ...scope, trackingId: destination.trackingId, ...(reply ?? {}) },
        'email_inbound',
        fields,
        'email',
        now,
      );
    } else {
      event = this.events.event(
        { ...scope, trackingId: randomUUID() },
        'email_inbound',
        { received_at: mail.receivedAt, clientId: scope.envId, ...fields },
        'email',
        now,
      );
    }
    return { ...event, webhookExtras: inboundEmailExtras(mail) };
  }
}
