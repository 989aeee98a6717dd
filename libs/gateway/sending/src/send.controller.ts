import { applyDecorators, Body, Controller, Headers, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type DirectEmailBody,
  directEmailBodySchema,
  type DirectSmsBody,
  directSmsBodySchema,
  normalizeDirectEmail,
  normalizeDirectSms,
  normalizeSend,
  requestSummary,
  type SendBody,
  sendBodySchema,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, ZodPipe } from '@notify/platform';
import type { Clock } from '@notify/util';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, namedSchema, openApi } from '@notify/gateway-openapi';
import type { Accepted, SendOrigin } from './accept-send.usecase';
import { IdempotentSends } from './idempotent-sends';
import { ReplaysIdempotentSends, UsageLimitGuard } from './usage-limit.guard';

const acceptedBodySchema = z.object({ trackingId: z.string(), messages: z.array(z.string()) });
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('SenderPostResponse', acceptedBodySchema);
const acceptedSchema = openApi(acceptedBodySchema, 'output');

/** Where a send came from, for its log: the request's body summary, client address and agent. */
export function sendOrigin(
  request: FastifyRequest,
  source: SendOrigin['source'],
  body: unknown,
  receivedAt: number,
): SendOrigin {
  return {
    source,
    request: requestSummary(body),
    ip: request.ip,
    agent: request.headers['user-agent'],
    receivedAt,
  };
}

const idempotencyHeader = applyDecorators(
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Up to 255 printable ASCII characters. The same key within 24 h answers with the first send and sends nothing again; with another body it is 409 IDEMPOTENCY_KEY_REUSED.',
  }),
  ReplaysIdempotentSends(),
);

@ApiTags('Sending')
@ApiErrors(402, 409, 503)
@UseGuards(UsageLimitGuard)
@Controller()
export class SendController {
  constructor(
    private readonly accept: IdempotentSends,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  @Post('send')
  @HttpCode(200)
  @idempotencyHeader
  @ApiOperation({ summary: 'Send one notification to one user', operationId: 'send' })
  @ApiBody({ schema: openApi(sendBodySchema) })
  @ApiOkResponse({ schema: acceptedSchema })
  send(
    @Body(new ZodPipe(sendBodySchema)) body: SendBody,
    @CurrentTenant() tenant: Tenant,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<Accepted> {
    const receivedAt = this.clock.now();
    return this.accept.execute(
      tenant,
      normalizeSend(body, receivedAt, this.config.limits),
      sendOrigin(request, 'send', body, receivedAt),
      body,
      idempotencyKey,
    );
  }

  @Post('email')
  @HttpCode(200)
  @idempotencyHeader
  @ApiOperation({ summary: 'Send an email without a template', operationId: 'sendEmail' })
  @ApiBody({ schema: openApi(directEmailBodySchema) })
  @ApiOkResponse({ schema: acceptedSchema })
  email(
    @Body(new ZodPipe(directEmailBodySchema)) body: DirectEmailBody,
    @CurrentTenant() tenant: Tenant,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<Accepted> {
    const receivedAt = this.clock.now();
    return this.accept.execute(
      tenant,
      normalizeDirectEmail(body, receivedAt, this.config.limits),
      sendOrigin(request, 'email', body, receivedAt),
      body,
      idempotencyKey,
    );
  }

  /** A number that is not one is refused here (400 INVALID_PHONE_NUMBER, with Twilio's code 21211). */
  @Post('sms')
  @HttpCode(200)
  @idempotencyHeader
  @ApiOperation({ summary: 'Send an SMS or MMS without a template', operationId: 'sendSms' })
  @ApiBody({ schema: openApi(directSmsBodySchema) })
  @ApiOkResponse({ schema: acceptedSchema })
  sms(
    @Body(new ZodPipe(directSmsBodySchema)) body: DirectSmsBody,
    @CurrentTenant() tenant: Tenant,
    @Req() request: FastifyRequest,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<Accepted> {
    const receivedAt = this.clock.now();
    return this.accept.execute(
      tenant,
      normalizeDirectSms(body, receivedAt, this.config.limits),
      sendOrigin(request, 'sms', body, receivedAt),
      body,
      idempotencyKey,
    );
  }
}
