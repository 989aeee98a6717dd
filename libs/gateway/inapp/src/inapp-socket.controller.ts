import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Limits } from '@notify/domain';
import { errorBodySchema, messageResponseSchema, openApi } from '@notify/gateway-openapi';
import { Public } from '@notify/platform';
import { UpgradeRequiredError } from '@notify/util';

/** What a refused upgrade answers (a plain HTTP answer on the socket, before any WebSocket frame). */
const refusal = openApi(messageResponseSchema, 'output');

/**
 * `GET /ws`, the in-app WebSocket. Upgrade requests never reach this route: InAppSockets takes them
 * from the HTTP server first. What does reach it is a plain GET, which is told to upgrade (426); the
 * route exists so the endpoint is documented, with what an upgrade answers.
 */
@ApiTags('Browser client')
@Public()
@Controller()
export class InAppSocketController {
  @Get('ws')
  @Header('upgrade', 'websocket')
  @ApiOperation({
    summary: 'Live in-app notifications over a WebSocket: frames {route, payload}',
    description:
      'Open with `Connection: Upgrade` and `Upgrade: websocket`. A new notification arrives as `{"route": "inapp_web/new_notifications", "payload": {"notifications": [item]}}`. The user is authenticated like the browser client (the hash is required in secure mode).',
    operationId: 'connectInAppWebSocket',
  })
  @ApiQuery({
    name: 'envId',
    required: true,
    description: 'The environment (client) id, or a public key of it (`notify_pk_…`)',
    schema: { type: 'string', maxLength: Limits.id },
  })
  @ApiQuery({ name: 'userId', required: true, schema: { type: 'string', maxLength: Limits.userId } })
  @ApiQuery({
    name: 'userIdHash',
    required: false,
    description: 'base64(HMAC-SHA256(environment secret, userId))',
    schema: { type: 'string', maxLength: 64 },
  })
  @ApiResponse({ status: 101, description: 'Switching to the WebSocket protocol' })
  @ApiResponse({
    status: 401,
    description: 'Upgrade refused: unknown environment, unknown or revoked public key, or a wrong hash',
    content: { 'application/json': { schema: refusal } },
  })
  @ApiResponse({
    status: 426,
    description: 'A plain request: this endpoint speaks WebSocket only',
    content: { 'application/json': { schema: openApi(errorBodySchema) } },
  })
  @ApiResponse({
    status: 429,
    description: 'Upgrade refused: too many failed logins from this client',
    content: { 'application/json': { schema: refusal } },
  })
  @ApiResponse({
    status: 503,
    description: 'The service is overloaded; retry after Retry-After',
    content: { 'application/json': { schema: openApi(errorBodySchema) } },
  })
  connect(): never {
    throw new UpgradeRequiredError({
      code: 'UPGRADE_REQUIRED',
      message: 'This endpoint is a WebSocket: open it with Upgrade: websocket.',
      fix: 'Connect with a WebSocket client to /ws?envId=…&userId=…&userIdHash=….',
    });
  }
}
