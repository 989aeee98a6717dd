import { type DynamicModule, Module } from '@nestjs/common';
import { DevInboundController } from './dev-inbound.controller';
import { DevInboxController } from './dev-inbox.controller';
import { DevMailController } from './dev-mail.controller';
import { DevOutbox, OUTBOX_SOURCES } from './dev-outbox';
import { DevOutboxController } from './dev-outbox.controller';
import type { OutboxSource } from '@notify/local-peer-kit';

/** `/dev/outbox/{channel}` (and `/dev/mail`) over the local peers the all-in-one service runs. */
@Module({})
export class DevOutboxModule {
  static forRoot(sources: readonly OutboxSource[]): DynamicModule {
    return {
      module: DevOutboxModule,
      controllers: [DevOutboxController, DevMailController, DevInboundController],
      providers: [DevOutbox, { provide: OUTBOX_SOURCES, useValue: sources }],
    };
  }
}

/** `/dev/inbox`, the demo in-app inbox page (all-in-one only). */
@Module({ controllers: [DevInboxController] })
export class DevInboxModule {}
