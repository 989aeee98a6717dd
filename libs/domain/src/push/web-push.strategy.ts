import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import { renderTitleAndMessage } from './push-content';
import type { WebPushJob } from './web-push-job';

/** Web push: inline `web_push` content, else the template's title, message, icon and url, to every subscription of the user. */
export const webPushStrategy: ChannelStrategy = {
  channel: 'WEB_PUSH',
  logPrefix: 'web_push',
  unknownFailureCode: 'UNKNOWN',
  digestible: true,
  contactFields: ['webPushTokens'],
  hasContact: (user) => (user.webPushTokens?.length ?? 0) > 0,
  contactGap: (user) =>
    (user.webPushTokens?.length ?? 0) === 0
      ? 'the user has no web push subscription (to.webPushTokens)'
      : undefined,
  hasInlineContent: (send) => send.web_push !== undefined,
  compose({ request, user, template, missingTemplateId, renderer }) {
    const { send } = request;
    const subscriptions = (user.webPushTokens ?? []).map((token) => token.sub);
    if (subscriptions.length === 0) return failed('UNKNOWN', 'the user has no webPushTokens');
    const source = send.web_push ?? template;
    const inline = send.web_push !== undefined;
    const content = renderTitleAndMessage(source, !inline, {
      renderer,
      parameters: send.parameters,
      field: 'web_push',
    });
    if (content === undefined)
      return failed(
        'UNKNOWN',
        inline
          ? 'web_push has no title or message'
          : missingContent('WEB_PUSH', 'web_push title and message', missingTemplateId),
      );
    const url =
      source?.url === undefined
        ? undefined
        : renderer.render(source.url, send.parameters, {
            html: false,
            field: 'web_push.url',
            cache: !inline,
          });
    const job: WebPushJob = {
      ...deliveryJobOf(request),
      ...content,
      ...(source?.icon !== undefined ? { icon: source.icon } : {}),
      ...(url !== undefined && url.length > 0 ? { url } : {}),
      subscriptions,
    };
    return { kind: 'job', job, preview: JSON.stringify(content) };
  },
  // The icon is sent as given, the url rendered (as compose does).
  preview: (content, render) => ({
    title: render.text('title', content.title),
    message: render.text('message', content.message),
    icon: content.icon,
    url: render.text('url', content.url),
  }),
};
