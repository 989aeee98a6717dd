import type { TemplateContent } from '../templates/template';
import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import { DEFAULT_INAPP_RETENTION_DAYS, type InAppJob } from './inapp-job';

type InAppContent = { title?: string; redirectURL?: string; imageURL?: string };

/** A template's in-app content: the digest's `batch` variant, else `instant`, else its top-level fields. */
function templateContent(template: TemplateContent, digest: boolean): InAppContent {
  return (digest ? template.batch : undefined) ?? template.instant ?? template;
}

/**
 * In-app: inline `inapp` ({title, url, image}), else the template's title, redirectURL and
 * imageURL, merge tags rendered as plain text. Every user has an inbox: nothing to look up.
 */
export const inappStrategy: ChannelStrategy = {
  channel: 'INAPP_WEB',
  logPrefix: 'inapp',
  unknownFailureCode: 'UNKNOWN',
  digestible: false,
  contactFields: [],
  // Every user has an in-app feed, though nobody need have asked for one.
  hasContact: () => true,
  contactGap: () => undefined,
  hasInlineContent: (send) => send.inapp !== undefined,
  compose({ request, template, missingTemplateId, renderer, retention }) {
    const { send } = request;
    const inline = send.inapp;
    const source: InAppContent | undefined =
      inline !== undefined
        ? { title: inline.title, redirectURL: inline.url, imageURL: inline.image }
        : template === undefined
          ? undefined
          : templateContent(template, request.digest !== undefined);
    const render = (value: string | undefined, field: string) =>
      value === undefined
        ? undefined
        : renderer.render(value, send.parameters, {
            html: false,
            field: `inapp.${field}`,
            cache: inline === undefined,
          });
    const title = render(source?.title, 'title');
    if (title === undefined || title.trim().length === 0)
      return failed(
        'IN_APP_WEB_FAILED',
        inline !== undefined
          ? 'inapp has no title'
          : missingContent('INAPP_WEB', 'inapp title', missingTemplateId),
      );
    const redirectURL = render(source?.redirectURL, 'url');
    const imageURL = render(source?.imageURL, 'image');
    const job: InAppJob = {
      ...deliveryJobOf(request),
      ...(send.subNotificationId !== undefined ? { subNotificationId: send.subNotificationId } : {}),
      title,
      ...(redirectURL ? { redirectURL } : {}),
      ...(imageURL ? { imageURL } : {}),
      ...(Object.keys(send.parameters).length > 0 ? { parameters: send.parameters } : {}),
      retentionDays: retention ?? DEFAULT_INAPP_RETENTION_DAYS,
    };
    return { kind: 'job', job, preview: JSON.stringify({ title, redirectURL, imageURL }) };
  },
  /** What an instant send shows, and what a digest shows (its `batch` variant when there is one). */
  preview(content, render) {
    const shown = (digest: boolean) => {
      const source = templateContent(content, digest);
      const prefix = source === content ? '' : source === content.batch ? 'batch.' : 'instant.';
      return {
        title: render.text(`${prefix}title`, source.title),
        redirectURL: render.text(`${prefix}redirectURL`, source.redirectURL),
        imageURL: render.text(`${prefix}imageURL`, source.imageURL),
      };
    };
    return { instant: shown(false), batch: shown(true) };
  },
};
