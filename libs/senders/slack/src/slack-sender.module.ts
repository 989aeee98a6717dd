import { slackJobSchema } from '@notify/domain';
import { ProvidersModule } from '@notify/providers';
import { channelSenderModule } from '@notify/sender-common';
import { SendSlackUseCase } from './send-slack.usecase';

/** Consumes SLACK jobs with SendSlackUseCase; see channelSenderModule for redelivery and giving up. */
export const SlackSenderModule = channelSenderModule({
  channel: 'SLACK',
  schema: slackJobSchema,
  concurrency: 32,
  title: 'the Slack sender',
  sender: SendSlackUseCase,
  imports: [ProvidersModule],
});
