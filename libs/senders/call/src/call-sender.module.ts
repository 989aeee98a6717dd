import { callJobSchema } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { channelSenderModule } from '@notify/sender-common';
import { SendCallUseCase } from './send-call.usecase';

/** Consumes CALL jobs with SendCallUseCase; see channelSenderModule for redelivery and giving up. */
export const CallSenderModule = channelSenderModule({
  channel: 'CALL',
  schema: callJobSchema,
  concurrency: 32,
  title: 'the call sender',
  sender: SendCallUseCase,
  imports: [ProvidersModule],
});
