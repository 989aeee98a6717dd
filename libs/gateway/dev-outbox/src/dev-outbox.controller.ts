import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { DevOutbox } from './dev-outbox';

/** What the local peers of `npm start` received (see docs/api-behaviour.md): nothing left the machine. */
@ApiExcludeController()
@Controller('dev/outbox')
export class DevOutboxController {
  constructor(private readonly outbox: DevOutbox) {}

  @Get(':channel')
  async list(@CurrentTenant() tenant: Tenant, @Param('channel') channel: string) {
    return { messages: await this.outbox.list(tenant, channel) };
  }

  /** A subscription for a user's `webPushTokens` whose pushes the peer decrypts into the outbox. */
  @Post(':channel/subscriptions')
  @HttpCode(200)
  subscribe(@CurrentTenant() tenant: Tenant, @Param('channel') channel: string) {
    return this.outbox.subscribe(tenant, channel);
  }

  @Delete(':channel')
  async clear(@CurrentTenant() tenant: Tenant, @Param('channel') channel: string) {
    return { message: `${await this.outbox.clear(tenant, channel)} messages deleted` };
  }
}
