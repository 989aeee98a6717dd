import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ProvidersModule } from '@notify/providers';
import { SlackController } from './slack.controller';

/** Users' Slack connections: OAuth code exchange and destination listing. */
@Module({ imports: [GatewayAuthModule, ProvidersModule], controllers: [SlackController] })
export class SlackModule {}
