import { Module } from '@nestjs/common';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ClientInAppController } from './client-inapp.controller';
import { InAppDeliveries } from './inapp-deliveries';
import { InAppFeed } from './inapp-feed';
import { InAppSocketController } from './inapp-socket.controller';
import { InAppSockets } from './inapp-sockets';
import { UserInAppController } from './user-inapp.controller';

/** The in-app inbox on the gateway: the end-user REST routes and the live WebSocket. */
@Module({
  imports: [GatewayAuthModule],
  controllers: [ClientInAppController, UserInAppController, InAppSocketController],
  providers: [InAppDeliveries, InAppFeed, InAppSockets],
})
export class InAppModule {}
