import { Injectable } from '@nestjs/common';
import { normalizeEmail, normalizeTestEmail, type TestEmailBody } from '@notify/domain';
import type { Caller, Tenant } from '@notify/gateway-auth';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { MembershipRepository, NotificationTypeRepository, PeopleRepository } from '@notify/store';
import { ForbiddenError } from '@notify/util';
import { type Accepted, AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';

/**
 * Sends content under test to the caller, through the pipeline like any direct email (the same
 * renderer and limits as templates, the same sender rules, logged under its tracking id), its merge
 * tags filled with sample values. "The caller" is whoever may read that mailbox: a member's own
 * address, or, with an API key, the address of a member of the key's account; any other `to` is 403,
 * so the route cannot mail strangers. A notification type that does not exist, or is disabled, is
 * named in `messages` (the email goes out with the given content all the same, as any send would).
 */
@Injectable()
export class SendTestEmailUseCase {
  constructor(
    private readonly accept: AcceptSendUseCase,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly types: NotificationTypeRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: {
    readonly tenant: Tenant;
    readonly caller: Caller;
    readonly body: TestEmailBody;
    readonly origin: SendOrigin;
  }): Promise<Accepted> {
    const { tenant, caller, body, origin } = command;
    await this.checkRecipient(caller, body.to);
    const send = normalizeTestEmail(body, origin.receivedAt, this.config.limits);
    const warnings = await this.typeWarnings(tenant, body.notificationId);
    const accepted = await this.accept.execute(tenant, send, origin);
    return { trackingId: accepted.trackingId, messages: [...warnings, ...accepted.messages] };
  }

  private async checkRecipient(caller: Caller, to: string): Promise<void> {
    const address = normalizeEmail(to);
    if (caller.kind === 'member') {
      if (normalizeEmail(caller.email) === address) return;
    } else {
      const person = await this.people.findByEmail(address);
      if (person !== undefined && (await this.memberships.get(caller.accountId, person.userId)) !== undefined)
        return;
    }
    throw new ForbiddenError({
      code: 'RECIPIENT_NOT_ALLOWED',
      message:
        caller.kind === 'member'
          ? `A test email goes to the caller: ${to} is not your address.`
          : `A test email goes to a member of the account: ${to} is not one.`,
      fix:
        caller.kind === 'member'
          ? `Set to to ${caller.email}, or send the content to others with POST /email.`
          : 'Set to to the address of a member of the account (GET /members), or use POST /email.',
    });
  }

  private async typeWarnings(tenant: Tenant, notificationId: string): Promise<string[]> {
    const type = await this.types.get(tenant, notificationId);
    if (type === undefined)
      return [
        `notification type "${notificationId}" does not exist: the test email is sent with the given content, and the type is created as by any send.`,
      ];
    if (!type.enabled)
      return [
        `notification type "${notificationId}" is disabled: the test email is logged as ignored (DISABLED_NOTIFICATION).`,
      ];
    return [];
  }
}
