import { type DynamicModule, Module } from '@nestjs/common';
import type { DnsZone } from '@notify/local-peer-dns';
import { DevDns, DNS_ZONE } from './dev-dns';
import { DevDnsController } from './dev-dns.controller';
import { DevInboundController } from './dev-inbound.controller';
import { DevInboxController } from './dev-inbox.controller';
import { DevMailController } from './dev-mail.controller';
import { DevOutbox, OUTBOX_SOURCES } from './dev-outbox';
import { DevOutboxController } from './dev-outbox.controller';
import type { OutboxSource } from '@notify/local-peer-kit';

/**
 * `/dev/outbox/{channel}` (and `/dev/mail`) over the local peers the all-in-one service runs, and
 * `/dev/dns/{name}` over its local DNS peer when it runs one.
 */
@Module({})
export class DevOutboxModule {
  static forRoot(sources: readonly OutboxSource[], dnsZone?: DnsZone): DynamicModule {
    return {
      module: DevOutboxModule,
      controllers: [DevOutboxController, DevMailController, DevInboundController, DevDnsController],
      providers: [
        DevOutbox,
        DevDns,
        { provide: OUTBOX_SOURCES, useValue: sources },
        { provide: DNS_ZONE, useValue: dnsZone ?? null },
      ],
    };
  }
}

/** `/dev/inbox`, the demo in-app inbox page (all-in-one only). */
@Module({ controllers: [DevInboxController] })
export class DevInboxModule {}
