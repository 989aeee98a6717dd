import { inappJobSchema } from '@notify/domain';
import { channelSenderModule } from '@notify/sender-common';
import { SendInAppUseCase } from './send-inapp.usecase';

/** Consumes INAPP_WEB jobs with SendInAppUseCase; see channelSenderModule for redelivery and giving up. */
export const InAppSenderModule = channelSenderModule({
  channel: 'INAPP_WEB',
  schema: inappJobSchema,
  concurrency: 64,
  title: 'the in-app sender',
  gaveUpCode: 'IN_APP_WEB_FAILED',
  sender: SendInAppUseCase,
});
