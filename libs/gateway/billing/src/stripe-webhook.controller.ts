import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { KeepRawBody, Public, rawBodyOf } from '@notify/platform';
import type { FastifyRequest } from 'fastify';
import { HandleStripeEventUseCase } from './handle-stripe-event.usecase';

/** Stripe's events are small (an event carries one object); a larger body is refused (413) unread. */
export const STRIPE_EVENT_MAX_BYTES = 512 * 1024;

/**
 * `/billing/stripe/webhook`: Stripe's deliveries. No API credentials: the Stripe-Signature header,
 * checked over the exact body with STRIPE_WEBHOOK_SECRET, is the authentication (400 when it does
 * not hold; 404 when no secret is configured). Stripe's, not an API for tenants: left out of the
 * OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('billing/stripe/webhook')
export class StripeWebhookController {
  constructor(private readonly handleEvent: HandleStripeEventUseCase) {}

  @Post()
  @HttpCode(200)
  @KeepRawBody(STRIPE_EVENT_MAX_BYTES)
  async receive(@Req() request: FastifyRequest, @Headers('stripe-signature') signature?: string) {
    return this.handleEvent.execute({
      rawBody: rawBodyOf(request) ?? '',
      ...(signature !== undefined ? { signature } : {}),
    });
  }
}
