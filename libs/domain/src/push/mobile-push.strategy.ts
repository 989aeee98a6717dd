import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import type { MobilePushJob } from './mobile-push-job';
import { renderTitleAndMessage } from './push-content';

/**
 * Mobile push (FCM and APNs): inline `mobile_push` content, else the template's title and message,
 * to every token of the user, with the send's `options.apn`, `options.fcm.android` and
 * `options.push.customData`.
 */
export const mobilePushStrategy: ChannelStrategy = {
  channel: 'PUSH',
  logPrefix: 'mobile_push',
  unknownFailureCode: 'UNKNOWN',
  digestible: true,
  contactFields: ['pushTokens'],
  hasContact: (user) => (user.pushTokens?.length ?? 0) > 0,
  contactGap: (user) =>
    (user.pushTokens?.length ?? 0) === 0 ? 'the user has no mobile push token (to.pushTokens)' : undefined,
  hasInlineContent: (send) => send.mobile_push !== undefined,
  compose({ request, user, template, missingTemplateId, renderer }) {
    const { send } = request;
    const targets = (user.pushTokens ?? []).map(({ type, token, environment }) => ({
      type,
      token,
      ...(environment !== undefined ? { environment } : {}),
    }));
    if (targets.length === 0) return failed('UNKNOWN', 'the user has no pushTokens');
    const content = renderTitleAndMessage(send.mobile_push ?? template, send.mobile_push === undefined, {
      renderer,
      parameters: send.parameters,
      field: 'mobile_push',
    });
    if (content === undefined)
      return failed(
        'UNKNOWN',
        send.mobile_push === undefined
          ? missingContent('PUSH', 'mobile_push title and message', missingTemplateId)
          : 'mobile_push has no title or message',
      );
    const options = send.options;
    const job: MobilePushJob = {
      ...deliveryJobOf(request),
      ...content,
      targets,
      ...(options?.apn !== undefined ? { apn: options.apn } : {}),
      ...(options?.fcm?.android !== undefined ? { android: options.fcm.android } : {}),
      ...(options?.push?.customData !== undefined ? { customData: options.push.customData } : {}),
    };
    return { kind: 'job', job, preview: JSON.stringify(content) };
  },
  preview: (content, render) => ({
    title: render.text('title', content.title),
    message: render.text('message', content.message),
  }),
};
