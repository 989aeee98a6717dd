import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { errorBodySchema, openApi } from '@notify/platform';

// The documentation of the email tracking routes (/t/*), kept beside their controller.

const errorBody = { 'application/json': { schema: openApi(errorBodySchema) } };
const notOurs = { status: 404, description: 'Not a token of this service', content: errorBody };

/** Public routes reached from emails: no credentials; refused when a client asks too often or the service is overloaded. */
export const ApiTrackingRoutes = (): ClassDecorator =>
  applyDecorators(
    ApiTags('Email tracking'),
    ApiParam({
      name: 'token',
      required: true,
      description: 'The signed token the email carries (base64url payload, a dot, base64url signature)',
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', maxLength: 4_096 },
    }),
    // Refused before any route runs: by the router (a parameter over 4,096 characters) or by
    // Node's HTTP parser (a request line and headers over 16 KB, e.g. a long token percent-encoded).
    ApiResponse({
      status: 414,
      description: 'A token longer than 4,096 characters',
      content: { 'application/json': { schema: { type: 'object' } } },
    }),
    ApiResponse({
      status: 431,
      description: 'A URL over 16 KB',
      content: { 'application/json': { schema: { type: 'object' } } },
    }),
    ApiResponse({
      status: 429,
      description:
        "Past the link's requests a minute (TRACKING_REQUESTS_PER_MINUTE: per message for a valid token, per client address for another; the pixel is not limited)",
      content: errorBody,
    }),
    ApiResponse({
      status: 503,
      description: 'The service is overloaded; retry after Retry-After',
      content: errorBody,
    }),
  );

export const ApiOpenTracking = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Open pixel: records an open (EMAIL_OPEN) for a valid token',
      operationId: 'trackEmailOpen',
    }),
    ApiProduces('image/gif'),
    ApiResponse({
      status: 200,
      description: 'A transparent 1×1 GIF, whatever the token (an unknown one records nothing)',
      content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
    }),
  );

export const ApiClickTracking = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Tracked link: records a click (EMAIL_CLICK) and redirects to the link',
      operationId: 'trackEmailClick',
    }),
    ApiResponse({
      status: 302,
      description: 'Redirect to the link the token carries',
      headers: { Location: { description: 'The original link', schema: { type: 'string' } } },
    }),
    ApiResponse(notOurs),
  );

export const ApiUnsubscribeConfirmation = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Unsubscribe page: a button that posts the one-click unsubscribe',
      operationId: 'getEmailUnsubscribe',
    }),
    ApiResponse({
      status: 200,
      description: 'An HTML page with the unsubscribe button',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
    ApiResponse(notOurs),
  );

export const ApiUnsubscribe = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'One-click unsubscribe (RFC 8058): unsubscribes the recipient (EMAIL_UNSUBSCRIBE)',
      operationId: 'emailUnsubscribe',
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      required: false,
      description: 'What mail clients post (`List-Unsubscribe=One-Click`); the token alone decides',
      schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } },
    }),
    ApiResponse({
      status: 200,
      description: 'Unsubscribed',
      content: { 'text/plain': { schema: { type: 'string' } } },
    }),
    ApiResponse(notOurs),
  );
