import { Module } from '@nestjs/common';
import { DeliveryLedgerStore } from '@notify/cache';
import { OnceDelivery } from './once-delivery';
import { SandboxPeers } from './sandbox-peers';
import { SandboxPushPeers } from './sandbox-push-peers';

/** What every sender module imports: the delivery ledger, the once-only outer step, the sandbox peers. */
@Module({
  providers: [DeliveryLedgerStore, OnceDelivery, SandboxPeers, SandboxPushPeers],
  exports: [OnceDelivery, SandboxPeers, SandboxPushPeers],
})
export class SenderCommonModule {}
