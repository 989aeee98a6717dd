import { Injectable } from '@nestjs/common';
import { SmsConversationsStore } from '@notify/cache';
import { DeliveryEventsPublisher, type EventSubject } from '@notify/delivery-events';
import {
  callStatusEvent,
  normalizePhoneNumber,
  smsStatusEvent,
  type TenantScope,
  type TwilioForm,
  twilioField,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { TwilioAccounts } from '@notify/providers';
import { AccountRepository } from '@notify/store';
import { type Clock, UnauthorizedError } from '@notify/util';
import { timingSafeEqual } from 'node:crypto';
import twilio from 'twilio';
import { InboundSmsUseCase } from './inbound-sms.usecase';

/** What Twilio signed: the URL it was given (the public one) and the form's parameters. */
export interface SignedTwilioRequest {
  /** The X-Twilio-Signature header, if any. */
  readonly signature: string | undefined;
  readonly url: string;
  readonly form: TwilioForm;
}

/** An inbound message, for the environment the URL names (`envId`) or the one that texted the sender last. */
export interface InboundSmsCommand extends SignedTwilioRequest {
  readonly envId?: string;
}

/** A message's or call's status, for the send the callback URL names. */
export interface StatusCallbackCommand extends SignedTwilioRequest {
  /** The log channel the status is of: a message's (`sms`) or a call's. */
  readonly channel: 'sms' | 'call';
  readonly subject: EventSubject & { readonly receivedAt: number };
}

/** Anything not signed by Twilio with the environment's auth token: 401, nothing recorded. */
export const twilioRefused = () =>
  new UnauthorizedError({
    code: 'INVALID_SIGNATURE',
    message: 'The X-Twilio-Signature header does not match this request.',
    fix: 'Only Twilio (with the environment’s auth token) may post here.',
  });

/**
 * Whether Twilio signed the URL exactly as it was received, with one HMAC. That URL is one of the
 * forms validateRequest accepts (it tries the URL without its port, then with the scheme's default
 * one, then normalised), so checking it first accepts nothing more; it saves validateRequest's
 * failed first try on every callback to a URL with a port (an all-in-one's PUBLIC_URL).
 */
function signedAsReceived(authToken: string, signature: string, request: SignedTwilioRequest): boolean {
  const expected = Buffer.from(twilio.getExpectedTwilioSignature(authToken, request.url, request.form));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Twilio's callbacks: message receipts, call outcomes and inbound messages, each checked to be
 * Twilio's for the environment it is about (the AccountSid is the environment's Twilio account and
 * the signature is made with its auth token over the full URL and parameters) before anything is
 * recorded.
 */
@Injectable()
export class TwilioCallbacksUseCase {
  constructor(
    private readonly accounts: TwilioAccounts,
    private readonly environments: AccountRepository,
    private readonly conversations: SmsConversationsStore,
    private readonly inbound: InboundSmsUseCase,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** Records an inbound message; answers the text to reply with, if any. */
  async inboundSms(command: InboundSmsCommand): Promise<string | undefined> {
    const scope = await this.inboundScope(command);
    if (scope === undefined) throw twilioRefused();
    await this.checkSignature(command, scope);
    return (await this.inbound.receive(scope, command.form)).reply;
  }

  /** Logs what the status means for the send (intermediate statuses log nothing). */
  async status(command: StatusCallbackCommand): Promise<void> {
    const { subject, form } = command;
    await this.checkSignature(command, subject);
    const now = this.clock.now();
    const outcome =
      command.channel === 'sms'
        ? smsStatusEvent(form, subject.receivedAt, now)
        : callStatusEvent(form, subject.receivedAt, now, this.config.pricing.callPerMinute);
    if (outcome === undefined) return;
    await this.events.publish(
      this.events.event(subject, outcome.event, outcome.fields, command.channel, now),
    );
  }

  /** The request is Twilio's for this environment's account: the AccountSid and the signature match. */
  private async checkSignature(request: SignedTwilioRequest, scope: TenantScope): Promise<void> {
    if (request.signature === undefined) throw twilioRefused();
    const account = (await this.accounts.callbackAccountsOf(scope)).find(
      (candidate) => candidate.accountSid === request.form.AccountSid,
    );
    if (account === undefined) throw twilioRefused();
    if (
      !signedAsReceived(account.authToken, request.signature, request) &&
      !twilio.validateRequest(account.authToken, request.signature, request.url, request.form)
    )
      throw twilioRefused();
  }

  /**
   * The URL's environment (a number configured for one environment), else the one that last texted
   * the sender from this number.
   */
  private async inboundScope(command: InboundSmsCommand): Promise<TenantScope | undefined> {
    if (command.envId !== undefined) {
      const environment = await this.environments.findEnvironment(command.envId);
      return environment === undefined
        ? undefined
        : { accountId: environment.accountId, envId: environment.envId };
    }
    const from = normalizePhoneNumber(twilioField(command.form, 'From') ?? '');
    if (from === undefined) return undefined;
    return this.conversations.lastEnvironment(twilioField(command.form, 'To') ?? '', from);
  }
}
