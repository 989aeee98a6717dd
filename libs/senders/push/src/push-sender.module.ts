import { mobilePushJobSchema } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { channelSenderModule } from '@notify/sender-common';
import { SendMobilePushUseCase } from './send-mobile-push.usecase';

/** Consumes PUSH jobs with SendMobilePushUseCase; see channelSenderModule for redelivery and giving up. */
export const PushSenderModule = channelSenderModule({
  channel: 'PUSH',
  schema: mobilePushJobSchema,
  concurrency: 64,
  title: 'the push sender',
  sender: SendMobilePushUseCase,
  imports: [ProvidersModule],
});
