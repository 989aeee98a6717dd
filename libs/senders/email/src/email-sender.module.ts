import { emailJobSchema } from '@notify/domain';
import { channelSenderModule } from '@notify/sender-common';
import { AttachmentFetcher } from './attachment-fetcher';
import { RelayPools } from './relay-pools';
import { SendEmailUseCase } from './send-email.usecase';
import { SendingDomainKeys } from './sending-domain-keys';

/** Consumes EMAIL jobs with SendEmailUseCase; see channelSenderModule for redelivery and giving up. */
export const EmailSenderModule = channelSenderModule({
  channel: 'EMAIL',
  schema: emailJobSchema,
  concurrency: 64,
  title: 'the email sender',
  sender: SendEmailUseCase,
  providers: [RelayPools, AttachmentFetcher, SendingDomainKeys],
});
