import { Module } from '@nestjs/common';
import { ProvidersModule } from '@notify/providers';
import { InboundSmsUseCase } from './inbound-sms.usecase';
import { TwilioCallbacksController } from './twilio-callbacks.controller';

/** What providers send in (decisions 8 and 13): Twilio's status callbacks and inbound messages. */
@Module({
  imports: [ProvidersModule],
  controllers: [TwilioCallbacksController],
  providers: [InboundSmsUseCase],
})
export class InboundModule {}
