import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import { ConnectSlackUseCase } from './connect-slack.usecase';
import { ListSlackDestinationsUseCase } from './list-slack-destinations.usecase';
import { SlackController } from './slack.controller';

/** Users' Slack connections: OAuth code exchange and destination listing. */
@Module({
  imports: [GatewayAuthModule, ProvidersModule],
  controllers: [SlackController],
  providers: [ConnectSlackUseCase, ListSlackDestinationsUseCase],
})
export class SlackModule {}
