import { isComposition, recipientNumber } from '../phone/recipient-number';
import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import type { CallJob } from './call-job';

/** Voice calls: inline `call.message`, else the template's `text`, spoken to the user's number. */
export const callStrategy: ChannelStrategy = {
  channel: 'CALL',
  logPrefix: 'call',
  unknownFailureCode: 'Unknown',
  digestible: true,
  contactFields: ['number'],
  hasContact: (user) => user.number !== undefined,
  contactGap: (user) => (user.number === undefined ? 'the user has no phone number (to.number)' : undefined),
  hasInlineContent: (send) => send.call !== undefined,
  compose({ request, user, template, missingTemplateId, renderer }) {
    const { send } = request;
    const number = recipientNumber(send, user);
    if (isComposition(number)) return number;
    const source = send.call?.message ?? template?.text;
    const message =
      source === undefined
        ? ''
        : renderer.render(source, send.parameters, {
            html: false,
            field: 'call.message',
            cache: send.call === undefined,
          });
    if (message.trim().length === 0)
      return failed(
        'MISSING_SMS_MESSAGE',
        send.call === undefined
          ? missingContent('CALL', 'call message', missingTemplateId)
          : 'call has no message',
      );
    const job: CallJob = {
      ...deliveryJobOf(request),
      to: number.e164,
      ...(number.country !== undefined ? { country: number.country } : {}),
      message,
    };
    return { kind: 'job', job, preview: message };
  },
  preview: (content, render) => ({ text: render.text('text', content.text) ?? '' }),
};
