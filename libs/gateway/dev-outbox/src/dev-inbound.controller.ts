import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { type AppConfig, InjectConfig, ZodPipe } from '@notify/platform';
import { NotFoundError } from '@notify/util';
import { z } from 'zod';
import { OUTBOX_SOURCES } from './dev-outbox';
import type { OutboxSource } from '@notify/local-peer-kit';

const inboundSmsSchema = z.object({
  from: z.string().min(1).max(32),
  /** The service number written to; the installation's default from-number when absent. */
  to: z.string().min(1).max(32).optional(),
  text: z.string().max(1_600),
});

/**
 * `POST /dev/inbound/sms` (all-in-one, docs/api-behaviour.md): makes the local Twilio peer deliver an
 * inbound SMS to the inbound endpoint for the caller's environment, signed, exactly as Twilio
 * would; answers the status the endpoint gave.
 */
@ApiExcludeController()
@Controller('dev/inbound')
export class DevInboundController {
  constructor(
    @Inject(OUTBOX_SOURCES) private readonly sources: readonly OutboxSource[],
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Post('sms')
  @HttpCode(200)
  async sms(
    @CurrentTenant() tenant: Tenant,
    @Body(new ZodPipe(inboundSmsSchema)) body: z.infer<typeof inboundSmsSchema>,
  ): Promise<{ status: number }> {
    const inbound = this.sources.find((s) => s.channel === 'sms')?.inbound;
    const base = this.config.http.publicUrl;
    if (inbound === undefined || base === undefined)
      throw new NotFoundError({
        code: 'NOT_FOUND',
        message:
          'Inbound SMS can be rehearsed in the all-in-one service in development mode, with the local Twilio peer.',
        fix: 'Run it with DEV_MODE=true (as npm start does) and without TWILIO_ACCOUNT_SID to use the local peer.',
      });
    const url = new URL('inbound/twilio/sms', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('envId', tenant.envId);
    const status = await inbound(url.toString(), {
      from: body.from,
      to: body.to ?? this.config.twilio.fromNumber ?? '',
      body: body.text,
    });
    return { status };
  }
}
