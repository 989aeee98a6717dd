import { Module } from '@nestjs/common';
import { DeliveryLedgerStore } from '@notify/cache';
import { LocalPeersSandboxModule } from '@notify/local-peer-sandbox';
import { ProviderResolversModule } from '@notify/providers';
import { OnceDelivery } from './once-delivery';

const providerResolvers = ProviderResolversModule.withSandbox(LocalPeersSandboxModule);

/** What every sender module imports: the delivery ledger, the once-only outer step, each channel's provider resolver. */
@Module({
  imports: [providerResolvers],
  providers: [DeliveryLedgerStore, OnceDelivery],
  exports: [OnceDelivery, providerResolvers],
})
export class SenderCommonModule {}
