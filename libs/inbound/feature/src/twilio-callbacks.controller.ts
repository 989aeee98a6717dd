import { Body, Controller, Header, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  callStatusEvent,
  normalizePhoneNumber,
  smsLastEnvironmentKey,
  smsStatusEvent,
  type StatusOutcome,
  type TenantScope,
  type TwilioForm,
  twilioField,
} from '@notify/domain';
import { type AppConfig, InjectConfig, Public } from '@notify/platform';
import { UnauthorizedError } from '@notify/util';
import { TwilioAccounts } from '@notify/providers';
import { AccountRepository } from '@notify/store';
import type { FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { z } from 'zod';
import { InboundSmsUseCase } from './inbound-sms.usecase';
import {
  ApiTwilioCallback,
  ApiTwilioCallbacks,
  RECORDED_ANSWER,
  TWIML_ANSWER,
} from './twilio-callbacks.openapi';

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
/**
 * Twilio wants TwiML back from a messaging webhook: a `<Message>` in it is sent by Twilio to the
 * sender, from the number it wrote to; an empty response sends nothing.
 */
const messagingTwiml = (reply: string | undefined) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${
    reply === undefined ? '' : `<Message>${reply.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c)}</Message>`
  }</Response>`;
const inboundQuerySchema = z.object({ envId: z.string().min(1).max(200).optional() });

/** The send a callback is for, as the sender wrote it into the callback URL (which Twilio signs). */
const subjectSchema = z.object({
  accountId: z.string().min(1).max(200),
  envId: z.string().min(1).max(200),
  trackingId: z.string().min(1).max(200),
  receivedAt: z.coerce.number().int().min(0),
  userId: z.string().min(1).max(256).optional(),
  notificationId: z.string().min(1).max(200).optional(),
});

const refused = () =>
  new UnauthorizedError({
    code: 'INVALID_SIGNATURE',
    message: 'The X-Twilio-Signature header does not match this request.',
    fix: 'Only Twilio (with the environment’s auth token) may post here.',
  });

/**
 * Twilio's callbacks (decisions 13), served by the inbound service: message receipts, call
 * outcomes and inbound messages, form-encoded and signed with the environment's auth token over
 * the full URL and parameters. Anything unsigned, or signed with another account's token, is 401
 * and records nothing.
 */
@ApiTwilioCallbacks()
@Public()
@Controller('inbound/twilio')
export class TwilioCallbacksController {
  constructor(
    private readonly accounts: TwilioAccounts,
    private readonly events: DeliveryEventsPublisher,
    private readonly inbound: InboundSmsUseCase,
    private readonly environments: AccountRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * An inbound message (Twilio's messaging webhook). The environment is the URL's `envId` (a number
   * configured for one environment), else the one that last texted the sender from this number.
   */
  @Post('sms')
  @ApiTwilioCallback('inboundTwilioSms', 'An inbound SMS or MMS', inboundQuerySchema, TWIML_ANSWER)
  @HttpCode(200)
  @Header('content-type', 'text/xml')
  async sms(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<string> {
    if (typeof form !== 'object' || form === null) throw refused();
    const params = form as TwilioForm;
    const scope = await this.inboundScope(query, params);
    if (scope === undefined) throw refused();
    await this.checkSignature(request, scope, params);
    const { reply } = await this.inbound.receive(scope, params);
    return messagingTwiml(reply);
  }

  @Post('status')
  @ApiTwilioCallback('twilioMessageStatus', 'A message status callback', subjectSchema, RECORDED_ANSWER)
  @HttpCode(204)
  status(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<void> {
    return this.record(request, query, form, 'sms', (params, receivedAt, now) =>
      smsStatusEvent(params, receivedAt, now),
    );
  }

  @Post('call-status')
  @ApiTwilioCallback('twilioCallStatus', 'A call status callback', subjectSchema, RECORDED_ANSWER)
  @HttpCode(204)
  callStatus(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<void> {
    return this.record(request, query, form, 'call', (params, receivedAt, now) =>
      callStatusEvent(params, receivedAt, now, this.config.pricing.callPerMinute),
    );
  }

  /** Checks the signature, then logs what the status means (intermediate statuses log nothing). */
  private async record(
    request: FastifyRequest,
    query: unknown,
    form: unknown,
    channel: 'sms' | 'call',
    outcomeOf: (params: TwilioForm, receivedAt: number, now: number) => StatusOutcome | undefined,
  ): Promise<void> {
    const { subject, params } = await this.verified(request, query, form);
    const now = Date.now();
    const outcome = outcomeOf(params, subject.receivedAt, now);
    if (outcome !== undefined)
      await this.events.publish(this.events.event(subject, outcome.event, outcome.fields, channel, now));
  }

  private async verified(request: FastifyRequest, query: unknown, form: unknown) {
    const subject = subjectSchema.safeParse(query);
    if (!subject.success || typeof form !== 'object' || form === null) throw refused();
    const params = form as TwilioForm;
    await this.checkSignature(request, subject.data, params);
    return { subject: subject.data, params };
  }

  /** The request is Twilio's for this environment's account: the AccountSid and the signature match. */
  private async checkSignature(
    request: FastifyRequest,
    scope: TenantScope,
    params: TwilioForm,
  ): Promise<void> {
    const signature = request.headers['x-twilio-signature'];
    if (typeof signature !== 'string') throw refused();
    const account = await this.accounts.callbackAccountOf(scope);
    if (account === undefined || params.AccountSid !== account.accountSid) throw refused();
    // Twilio signs the URL it was given: the public one, whatever proxies stand in between.
    const base = this.config.http.publicUrl ?? `${request.protocol}://${request.host}`;
    const url = `${base.replace(/\/+$/, '')}${request.url}`;
    if (!twilio.validateRequest(account.authToken, signature, url, params)) throw refused();
  }

  private async inboundScope(query: unknown, params: TwilioForm): Promise<TenantScope | undefined> {
    const parsed = inboundQuerySchema.safeParse(query);
    if (!parsed.success) return undefined;
    if (parsed.data.envId !== undefined) {
      const environment = await this.environments.findEnvironment(parsed.data.envId);
      return environment === undefined
        ? undefined
        : { accountId: environment.accountId, envId: environment.envId };
    }
    const from = normalizePhoneNumber(twilioField(params, 'From') ?? '');
    if (from === undefined) return undefined;
    const owner = await this.coordination.get(smsLastEnvironmentKey(twilioField(params, 'To') ?? '', from));
    const [accountId, envId] = owner?.split('/') ?? [];
    return accountId && envId ? { accountId, envId } : undefined;
  }
}
