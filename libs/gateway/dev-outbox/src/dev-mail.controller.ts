import { Controller, Delete, type DynamicModule, Get, Inject, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import type { CaughtMail, MailCatcher } from '@notify/mail-catcher';

const CATCHER = Symbol('MAIL_CATCHER');
const TRACKING_HEADER = 'x-notify-tracking-id';

/**
 * The local mailbox of `npm start`: what the service "sent" (it never leaves the machine). A key
 * sees and empties only its own environment's mail: a message belongs to the environment whose
 * delivery log knows its tracking id.
 */
@ApiExcludeController()
@Controller('dev/mail')
class DevMailController {
  constructor(
    @Inject(CATCHER) private readonly catcher: MailCatcher,
    @Inject(EVENT_LOG) private readonly log: EventLog,
  ) {}

  @Get()
  async list(@CurrentTenant() tenant: Tenant) {
    const mine = await this.ofTenant(tenant);
    return {
      messages: mine.reverse().map((m) => ({
        id: m.id,
        receivedAt: m.receivedAt,
        trackingId: m.headers[TRACKING_HEADER],
        from: m.from,
        to: m.to,
        cc: m.cc,
        bcc: m.envelope.to.filter((address) => !m.to.includes(address) && !m.cc.includes(address)),
        replyTo: m.replyTo,
        subject: m.subject,
        html: m.html,
        attachments: m.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          size: a.content.length,
        })),
      })),
    };
  }

  @Delete()
  async clear(@CurrentTenant() tenant: Tenant) {
    const mine = await this.ofTenant(tenant);
    this.catcher.remove(mine.map((m) => m.id));
    return { message: `${mine.length} messages deleted` };
  }

  private async ofTenant(tenant: Tenant): Promise<CaughtMail[]> {
    const all = this.catcher.messages();
    const trackingIds = [
      ...new Set(all.map((m) => m.headers[TRACKING_HEADER]).filter((id) => id !== undefined)),
    ];
    const known = new Set((await this.log.records(tenant, trackingIds)).map((record) => record.trackingId));
    return all.filter((m) => known.has(m.headers[TRACKING_HEADER] ?? ''));
  }
}

@Module({})
export class DevMailModule {
  static forRoot(catcher: MailCatcher): DynamicModule {
    return {
      module: DevMailModule,
      controllers: [DevMailController],
      providers: [{ provide: CATCHER, useValue: catcher }],
    };
  }
}
