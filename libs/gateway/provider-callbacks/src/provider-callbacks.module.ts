import { Module } from '@nestjs/common';
import { ProvidersModule } from '@notify/providers';
import { TwilioCallbacksController } from './twilio-callbacks.controller';

/** Providers' callbacks into the service (Twilio's today), until the inbound service hosts them. */
@Module({ imports: [ProvidersModule], controllers: [TwilioCallbacksController] })
export class ProviderCallbacksModule {}
