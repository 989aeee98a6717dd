import { webPushJobSchema } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { channelSenderModule } from '@notify/sender-common';
import { SendWebPushUseCase } from './send-web-push.usecase';

/** Consumes WEB_PUSH jobs with SendWebPushUseCase; see channelSenderModule for redelivery and giving up. */
export const WebPushSenderModule = channelSenderModule({
  channel: 'WEB_PUSH',
  schema: webPushJobSchema,
  concurrency: 64,
  title: 'the web push sender',
  sender: SendWebPushUseCase,
  imports: [ProvidersModule],
});
