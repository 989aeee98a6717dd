import { type ChannelStrategy, failed } from '../routing/channel-strategy';
import { suppresses } from '../users/user';
import { deliveryJobOf } from '../sends/delivery-job';
import { composeEmail, type EmailJob } from './email-job';

/** Email: missing parts travel with the job; the sender logs them with the spec's MISSING_EMAIL_* codes. */
export const emailStrategy: ChannelStrategy = {
  channel: 'EMAIL',
  logPrefix: 'email',
  // Email's list of codes has no UNKNOWN: its catch-all is the undetermined bounce.
  unknownFailureCode: 'UNDETERMINED_BOUNCE',
  digestible: true,
  usesComponents: true,
  contactFields: ['email'],
  hasContact: (user) => user.email !== undefined,
  contactGap: (user) => (user.email === undefined ? 'the user has no email address (to.email)' : undefined),
  hasInlineContent: (send) => send.email !== undefined,
  compose({ request, user, template, missingTemplateId, renderer, components, suppression, emailTracking }) {
    // A bounced or complained-about address gets nothing more until its suppression is lifted.
    if (suppression !== undefined && suppresses(suppression, user.email))
      return failed(
        suppression.reason === 'Bounce' ? 'SUPPRESSED_BOUNCE' : 'SUPPRESSED_COMPLAINT',
        `${user.email ?? 'the address'} is suppressed (${suppression.reason}); DELETE /user_suppression/{userId}/channel/EMAIL lifts it`,
      );
    const content = composeEmail(request.send, template, renderer, missingTemplateId, components);
    const options = request.send.options?.email;
    const job: EmailJob = {
      ...deliveryJobOf(request),
      to: user.email,
      ...content,
      track: emailTracking !== false,
      replyTo: options?.replyToAddresses ?? [],
      cc: options?.ccAddresses ?? [],
      bcc: options?.bccAddresses ?? [],
      attachments: options?.attachments ?? [],
    };
    return { kind: 'job', job, preview: JSON.stringify({ subject: content.subject, html: content.html }) };
  },
  // As composeEmail renders a template: the sender's address and name are text too.
  preview: (content, render) => ({
    subject: render.text('subject', content.subject),
    html: render.html('html', content.html),
    previewText: render.text('previewText', content.previewText),
    fromAddress: render.text('senderEmail', content.senderEmail),
    fromName: render.text('senderName', content.senderName),
  }),
};
