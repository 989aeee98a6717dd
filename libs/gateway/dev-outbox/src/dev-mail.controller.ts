import { Controller, Delete, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { DevOutbox } from './dev-outbox';

/** `/dev/mail`, the first local mailbox: the email outbox without the raw headers, envelope and source. */
@ApiExcludeController()
@Controller('dev/mail')
export class DevMailController {
  constructor(private readonly outbox: DevOutbox) {}

  @Get()
  async list(@CurrentTenant() tenant: Tenant) {
    const messages = await this.outbox.list(tenant, 'email');
    return {
      messages: messages.map(
        ({ headers: _headers, returnPath: _returnPath, rawBase64: _raw, ...mail }) => mail,
      ),
    };
  }

  @Delete()
  async clear(@CurrentTenant() tenant: Tenant) {
    return { message: `${await this.outbox.clear(tenant, 'email')} messages deleted` };
  }
}
