import { Module } from '@nestjs/common';
import { DeliveryLedger } from './delivery-ledger';
import { OnceDelivery } from './once-delivery';
import { SandboxPeers } from './sandbox-peers';
import { SandboxPushPeers } from './sandbox-push-peers';

/** What every sender module imports: the delivery ledger, the once-only outer step, the sandbox peers. */
@Module({
  providers: [DeliveryLedger, OnceDelivery, SandboxPeers, SandboxPushPeers],
  exports: [DeliveryLedger, OnceDelivery, SandboxPeers, SandboxPushPeers],
})
export class SenderCommonModule {}
