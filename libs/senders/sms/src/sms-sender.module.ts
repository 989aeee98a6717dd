import { smsJobSchema } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { channelSenderModule } from '@notify/sender-common';
import { SendSmsUseCase } from './send-sms.usecase';

/** Consumes SMS jobs with SendSmsUseCase; see channelSenderModule for redelivery and giving up. */
export const SmsSenderModule = channelSenderModule({
  channel: 'SMS',
  schema: smsJobSchema,
  concurrency: 64,
  title: 'the SMS sender',
  sender: SendSmsUseCase,
  imports: [ProvidersModule],
});
