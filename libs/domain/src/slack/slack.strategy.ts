import { type ChannelStrategy, failed, missingContent } from '../routing/channel-strategy';
import { deliveryJobOf } from '../sends/delivery-job';
import type { SlackJob } from './slack-job';

/** Merge tags in every string of a Block Kit structure (plain text: Slack escapes its own markup). */
function renderBlocks(value: unknown, render: (text: string) => string): unknown {
  if (typeof value === 'string') return render(value);
  if (Array.isArray(value)) return value.map((item) => renderBlocks(item, render));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderBlocks(item, render)]));
  return value;
}

/** Slack: inline `slack` content, else the template's text, blocks and message options. */
export const slackStrategy: ChannelStrategy = {
  channel: 'SLACK',
  logPrefix: 'slack',
  unknownFailureCode: 'UNKNOWN',
  digestible: true,
  contactFields: ['slackChannel', 'slackToken'],
  hasContact: (user) => user.slackChannel !== undefined || user.slackToken !== undefined,
  contactGap: (user) =>
    user.slackChannel === undefined
      ? 'the user has no Slack channel (to.slackChannel)'
      : user.slackToken?.access_token === undefined
        ? 'the user has no Slack token with an access_token (to.slackToken)'
        : undefined,
  hasInlineContent: (send) => send.slack !== undefined,
  compose({ request, user, template, missingTemplateId, renderer }) {
    const { send } = request;
    if (user.slackChannel === undefined) return failed('CHANNEL_NOT_FOUND', 'the user has no slackChannel');
    if (user.slackToken?.access_token === undefined)
      return failed('INVALID_AUTH', 'the user has no slackToken with an access_token');
    const source = send.slack ?? template;
    const cache = send.slack === undefined;
    const text =
      source?.text === undefined
        ? undefined
        : renderer.render(source.text, send.parameters, { html: false, field: 'slack.text', cache });
    const blocks =
      source?.blocks === undefined
        ? undefined
        : (renderBlocks(source.blocks, (block) =>
            renderer.render(block, send.parameters, { html: false, field: 'slack.blocks', cache }),
          ) as SlackJob['blocks']);
    if ((text === undefined || text.length === 0) && (blocks === undefined || blocks.length === 0))
      return failed(
        'NO_TEXT',
        send.slack === undefined
          ? missingContent('SLACK', 'slack text', missingTemplateId)
          : 'slack has no text',
      );
    const job: SlackJob = {
      ...deliveryJobOf(request),
      channel: user.slackChannel,
      ...(text !== undefined ? { text } : {}),
      ...(blocks !== undefined ? { blocks } : {}),
      ...(source?.username !== undefined ? { username: source.username } : {}),
      ...(source?.icon !== undefined ? { icon: source.icon } : {}),
      ...(source?.thread_ts !== undefined ? { thread_ts: source.thread_ts } : {}),
      ...(source?.reply_broadcast !== undefined ? { reply_broadcast: source.reply_broadcast } : {}),
      ...(source?.parse !== undefined ? { parse: source.parse } : {}),
      ...(source?.link_names !== undefined ? { link_names: source.link_names } : {}),
      ...(source?.mrkdwn !== undefined ? { mrkdwn: source.mrkdwn } : {}),
      ...(source?.unfurl_links !== undefined ? { unfurl_links: source.unfurl_links } : {}),
      ...(source?.unfurl_media !== undefined ? { unfurl_media: source.unfurl_media } : {}),
      ...(source?.metadata !== undefined ? { metadata: source.metadata } : {}),
    };
    return { kind: 'job', job, preview: JSON.stringify({ text, blocks }) };
  },
  // A block string that fails renders empty; the preview reports it.
  preview: (content, render) => ({
    text: render.text('text', content.text),
    blocks:
      content.blocks === undefined
        ? undefined
        : renderBlocks(content.blocks, (block) => render.text('blocks', block) ?? ''),
  }),
};
