import { Module } from '@nestjs/common';
import { DeliveryLedger } from './delivery-ledger';
import { OnceDelivery } from './once-delivery';

/** What every sender module imports: the delivery ledger and the once-only outer step. */
@Module({ providers: [DeliveryLedger, OnceDelivery], exports: [DeliveryLedger, OnceDelivery] })
export class SenderCommonModule {}
