import type { ChannelStrategy } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import { composeEmail, type EmailJob } from './email-job';

/** Email: missing parts travel with the job; the sender logs them with the spec's MISSING_EMAIL_* codes. */
export const emailStrategy: ChannelStrategy = {
  channel: 'EMAIL',
  compose({ request, user, template, missingTemplateId, renderer }) {
    const content = composeEmail(request.send, template, renderer, missingTemplateId);
    const options = request.send.options?.email;
    const job: EmailJob = {
      ...deliveryJobOf(request),
      to: user.email,
      ...content,
      replyTo: options?.replyToAddresses ?? [],
      cc: options?.ccAddresses ?? [],
      bcc: options?.bccAddresses ?? [],
      attachments: options?.attachments ?? [],
    };
    return { kind: 'job', job, preview: JSON.stringify({ subject: content.subject, html: content.html }) };
  },
};
