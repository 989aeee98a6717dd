import { Module } from '@nestjs/common';
import { LocalPeersSandboxModule } from '@notify/local-peer-sandbox';
import { ProviderResolversModule } from '@notify/providers';
import { DeliveryLedger } from './delivery-ledger';
import { OnceDelivery } from './once-delivery';

const providerResolvers = ProviderResolversModule.withSandbox(LocalPeersSandboxModule);

/** What every sender module imports: the delivery ledger, the once-only outer step, each channel's provider resolver. */
@Module({
  imports: [providerResolvers],
  providers: [DeliveryLedger, OnceDelivery],
  exports: [DeliveryLedger, OnceDelivery, providerResolvers],
})
export class SenderCommonModule {}
