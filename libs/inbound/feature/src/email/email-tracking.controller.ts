import { Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { InjectLogger, type Logger, Public } from '@notify/platform';
import { NotFoundError, RateLimitedError } from '@notify/util';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TrackingPayload } from '@notify/domain';
import { EmailTrackingUseCase, type Visitor } from './email-tracking.usecase';
import {
  ApiClickTracking,
  ApiOpenTracking,
  ApiTrackingRoutes,
  ApiUnsubscribeConfirmation,
  ApiUnsubscribe,
} from './email-tracking.openapi';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const unknown = () =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: 'This link is not valid.',
    fix: 'Use the link from the email.',
  });
const visitor = (request: FastifyRequest): Visitor => ({
  ...(typeof request.headers['user-agent'] === 'string' ? { userAgent: request.headers['user-agent'] } : {}),
  ip: request.ip,
});

/**
 * `/t/o/{token}` (open pixel), `/t/c/{token}` (click: 302 to the link), `/t/u/{token}` (one-click
 * unsubscribe, RFC 8058: POST unsubscribes, GET shows a button that does). A token that is not one
 * of ours gets 404, except the pixel, which always answers with the image (an open is counted once
 * per message and window, so it needs no other limit). The links answer 429 past their requests a
 * minute: a valid token's counted per message, another's per client address (`request.ip`, as every
 * route reads it: the proxy's X-Forwarded-For only when TRUST_PROXY trusts it).
 */
@ApiTrackingRoutes()
@Public()
@Controller('t')
export class EmailTrackingController {
  constructor(
    private readonly tracking: EmailTrackingUseCase,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /** The image, whatever happens: an open that cannot be recorded now is counted at the next one. */
  @Get('o/:token')
  @ApiOpenTracking()
  @Header('content-type', 'image/gif')
  @Header('cache-control', 'no-store, max-age=0')
  async open(@Param('token') token: string, @Req() request: FastifyRequest): Promise<Buffer> {
    const payload = this.tracking.read(token, 'o');
    if (payload !== undefined)
      await this.tracking
        .opened(payload, visitor(request))
        .catch((error: unknown) =>
          this.logger.warn({ err: error, trackingId: payload.t }, 'could not record an email open'),
        );
    return PIXEL;
  }

  @Get('c/:token')
  @ApiClickTracking()
  async click(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const payload = this.tracking.read(token, 'c');
    await this.limit(request, payload);
    if (payload?.l === undefined) throw unknown();
    await this.tracking.clicked(payload, visitor(request));
    await reply.code(302).header('location', payload.l).header('cache-control', 'no-store').send();
  }

  @Get('u/:token')
  @ApiUnsubscribeConfirmation()
  @Header('content-type', 'text/html; charset=utf-8')
  async confirm(@Param('token') token: string, @Req() request: FastifyRequest): Promise<string> {
    const payload = this.tracking.read(token, 'u');
    await this.limit(request, payload);
    if (payload === undefined) throw unknown();
    return (
      '<!doctype html><meta charset="utf-8"><title>Unsubscribe</title>' +
      '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      '<p>Stop these emails?</p><button type="submit">Unsubscribe</button></form>'
    );
  }

  @Post('u/:token')
  @ApiUnsubscribe()
  @HttpCode(200)
  @Header('content-type', 'text/plain; charset=utf-8')
  async unsubscribe(@Param('token') token: string, @Req() request: FastifyRequest): Promise<string> {
    const payload = this.tracking.read(token, 'u');
    await this.limit(request, payload);
    if (payload === undefined) throw unknown();
    await this.tracking.unsubscribe(payload);
    return 'You are unsubscribed.';
  }

  /** 429 past the requests a minute of the token's message, or of the client's address for another token. */
  private async limit(request: FastifyRequest, payload: TrackingPayload | undefined): Promise<void> {
    const retryAfter = await this.tracking.throttled(request.ip, payload);
    if (retryAfter !== undefined)
      throw new RateLimitedError(
        {
          code: 'RATE_LIMITED',
          message: 'Too many requests to this tracking link (or to unknown links from this address).',
          fix: 'Retry after the time in Retry-After.',
        },
        retryAfter,
      );
  }
}
