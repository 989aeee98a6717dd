import { Body, Controller, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { escapeTwiml, type TwilioForm } from '@notify/domain';
import { type AppConfig, InjectConfig, Public } from '@notify/platform';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiTwilioCallback,
  ApiTwilioCallbacks,
  RECORDED_ANSWER,
  TWIML_ANSWER,
} from './twilio-callbacks.openapi';
import { type SignedTwilioRequest, TwilioCallbacksUseCase, twilioRefused } from './twilio-callbacks.usecase';

/**
 * Twilio wants TwiML back from a messaging webhook: a `<Message>` in it is sent by Twilio to the
 * sender, from the number it wrote to; an empty response sends nothing.
 */
const messagingTwiml = (reply: string | undefined) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${
    reply === undefined ? '' : `<Message>${escapeTwiml(reply)}</Message>`
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

/**
 * Twilio's callbacks (`/inbound/twilio/*`), served by the inbound service: message receipts, call
 * outcomes and inbound messages, form-encoded and signed with the environment's auth token over
 * the full URL and parameters. Anything unsigned, or signed with another account's token, is 401
 * and records nothing.
 */
@ApiTwilioCallbacks()
@Public()
@Controller('inbound/twilio')
export class TwilioCallbacksController {
  constructor(
    private readonly callbacks: TwilioCallbacksUseCase,
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
    const signed = this.signed(request, form);
    const parsed = inboundQuerySchema.safeParse(query);
    if (!parsed.success) throw twilioRefused();
    const reply = await this.callbacks.inboundSms({
      ...signed,
      ...(parsed.data.envId !== undefined ? { envId: parsed.data.envId } : {}),
    });
    return messagingTwiml(reply);
  }

  @Post('status')
  @ApiTwilioCallback('twilioMessageStatus', 'A message status callback', subjectSchema, RECORDED_ANSWER)
  @HttpCode(204)
  status(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<void> {
    return this.callbacks.status({ ...this.statusOf(request, query, form), channel: 'sms' });
  }

  @Post('call-status')
  @ApiTwilioCallback('twilioCallStatus', 'A call status callback', subjectSchema, RECORDED_ANSWER)
  @HttpCode(204)
  callStatus(@Req() request: FastifyRequest, @Query() query: unknown, @Body() form: unknown): Promise<void> {
    return this.callbacks.status({ ...this.statusOf(request, query, form), channel: 'call' });
  }

  private statusOf(request: FastifyRequest, query: unknown, form: unknown) {
    const subject = subjectSchema.safeParse(query);
    if (!subject.success) throw twilioRefused();
    return { ...this.signed(request, form), subject: subject.data };
  }

  /** What Twilio signed, as it was given: the public URL, whatever proxies stand in between. */
  private signed(request: FastifyRequest, form: unknown): SignedTwilioRequest {
    if (typeof form !== 'object' || form === null) throw twilioRefused();
    const signature = request.headers['x-twilio-signature'];
    const base = this.config.http.publicUrl ?? `${request.protocol}://${request.host}`;
    return {
      signature: typeof signature === 'string' ? signature : undefined,
      url: `${base.replace(/\/+$/, '')}${request.url}`,
      form: form as TwilioForm,
    };
  }
}
