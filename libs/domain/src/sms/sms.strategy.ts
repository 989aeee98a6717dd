import { isComposition, recipientNumber } from '../phone/recipient-number';
import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import { smsSegments } from './sms-encoding';
import type { SmsJob } from './sms-job';

const HTTPS = /^https:\/\//i;

/** SMS and MMS: inline `sms` content, else the template's `text` and `mediaUrls`. */
export const smsStrategy: ChannelStrategy = {
  channel: 'SMS',
  logPrefix: 'sms',
  unknownFailureCode: 'Unknown',
  digestible: true,
  contactFields: ['number'],
  hasContact: (user) => user.number !== undefined,
  contactGap: (user) => (user.number === undefined ? 'the user has no phone number (to.number)' : undefined),
  hasInlineContent: (send) => send.sms !== undefined,
  compose({ request, user, template, missingTemplateId, renderer }) {
    const { send } = request;
    const number = recipientNumber(send, user);
    if (isComposition(number)) return number;
    const source = send.sms ?? { message: template?.text, mediaUrls: template?.mediaUrls };
    const message =
      source.message === undefined
        ? ''
        : renderer.render(source.message, send.parameters, {
            html: false,
            field: 'sms.message',
            cache: send.sms === undefined,
          });
    const mediaUrls = source.mediaUrls ?? [];
    if (message.length === 0 && mediaUrls.length === 0)
      return failed(
        'MISSING_SMS_MESSAGE',
        send.sms === undefined
          ? missingContent('SMS', 'sms content', missingTemplateId)
          : 'sms has no message',
      );
    const insecure = mediaUrls.find((url) => !HTTPS.test(url));
    if (insecure !== undefined) return failed('Unknown', `media URL ${insecure} is not https`);
    const job: SmsJob = {
      ...deliveryJobOf(request),
      to: number.e164,
      ...(number.country !== undefined ? { country: number.country } : {}),
      body: message,
      mediaUrls,
      ...(send.sms?.from !== undefined ? { from: send.sms.from } : {}),
      ...(send.sms?.autoReply !== undefined ? { autoReply: send.sms.autoReply.message } : {}),
    };
    return { kind: 'job', job, preview: message };
  },
  /** The text with how carriers will carry it: its encoding, segments, characters and units. */
  preview(content, render) {
    const text = render.text('text', content.text) ?? '';
    const { encoding, segments, units } = smsSegments(text);
    return {
      text,
      encoding,
      segments,
      characters: Array.from(text).length,
      units,
      mediaUrls: content.mediaUrls ?? [],
    };
  },
};
