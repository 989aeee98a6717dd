import { Body, Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { callStatusEvent, smsStatusEvent, type StatusOutcome, type TwilioForm } from '@notify/domain';
import { type AppConfig, InjectConfig, Public, UnauthorizedError } from '@notify/platform';
import { TwilioAccounts } from '@notify/providers';
import type { FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { z } from 'zod';

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
 * Twilio's status callbacks (decisions 13): message receipts and call outcomes, form-encoded and
 * signed with the environment's auth token over the full URL and parameters. Anything unsigned,
 * or signed with another account's token, is 401 and records nothing. Hosted by the gateway until
 * the inbound service takes them over.
 */
@ApiExcludeController()
@Public()
@Controller('inbound/twilio')
export class TwilioCallbacksController {
  constructor(
    private readonly accounts: TwilioAccounts,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Post('status')
  @HttpCode(204)
  status(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<void> {
    return this.record(request, query, form, 'sms', (params, receivedAt, now) =>
      smsStatusEvent(params, receivedAt, now),
    );
  }

  @Post('call-status')
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
    const params = (form ?? {}) as TwilioForm;
    const signature = request.headers['x-twilio-signature'];
    if (!subject.success || typeof signature !== 'string' || typeof form !== 'object') throw refused();
    const account = await this.accounts.callbackAccountOf(subject.data);
    if (account === undefined || params.AccountSid !== account.accountSid) throw refused();
    // Twilio signs the URL it was given: the public one, whatever proxies stand in between.
    const base = this.config.http.publicUrl ?? `${request.protocol}://${request.host}`;
    const url = `${base.replace(/\/+$/, '')}${request.url}`;
    if (!twilio.validateRequest(account.authToken, signature, url, params)) throw refused();
    return { subject: subject.data, params };
  }
}
