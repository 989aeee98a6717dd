import { Controller, Delete, Get, type DynamicModule, Inject, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { MailCatcher } from './mail-catcher';

const CATCHER = Symbol('MAIL_CATCHER');

/** The local mailbox of `npm start`: what the service "sent" (it never leaves the machine). */
@ApiExcludeController()
@Controller('dev/mail')
class DevMailController {
  constructor(@Inject(CATCHER) private readonly catcher: MailCatcher) {}

  @Get()
  list() {
    return {
      messages: [...this.catcher.messages()].reverse().map((m) => ({
        id: m.id,
        receivedAt: m.receivedAt,
        from: m.from,
        to: m.to,
        cc: m.cc,
        bcc: m.envelope.to.filter((address) => !m.to.includes(address) && !m.cc.includes(address)),
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
  clear() {
    this.catcher.clear();
    return { message: 'Mailbox emptied' };
  }
}

@Module({})
export class MailCatcherModule {
  static forRoot(catcher: MailCatcher): DynamicModule {
    return {
      module: MailCatcherModule,
      controllers: [DevMailController],
      providers: [{ provide: CATCHER, useValue: catcher }],
    };
  }
}
