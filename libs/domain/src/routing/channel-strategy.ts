import type { Channel } from '../channels/channel';
import type { TemplateRenderer } from '../rendering/template-renderer';
import type { SendRequested } from '../sends/send-request';
import type { Template } from '../templates/template';
import type { EmailSuppressionStatus, UserFields } from '../users/user';

/** What a channel's content is composed from. */
export interface ComposeContext {
  readonly request: SendRequested;
  /** The stored user merged with the send's `to`. */
  readonly user: UserFields;
  /** The chosen or default template of this channel, when the send has no inline content. */
  readonly template?: Template;
  /** A template the send named that does not exist for this channel. */
  readonly missingTemplateId?: string;
  readonly renderer: TemplateRenderer;
  /** The stored user's email suppression (a bounce or complaint), when there is one. */
  readonly suppression?: EmailSuppressionStatus;
  /** The notification type's `retention` in days, when it has one (in-app items expire after it). */
  readonly retention?: number;
  /** The environment tracks email opens and clicks (its `emailTracking`, on unless turned off). */
  readonly emailTracking?: boolean;
}

export type Composition =
  /** A job for the channel's sender, and the log's preview of what it will send. */
  | { readonly kind: 'job'; readonly job: object; readonly preview: string }
  /** Nothing can be sent: the spec's failure code for the channel, and why. */
  | { readonly kind: 'failed'; readonly code: string; readonly internal: string };

/**
 * One channel's part of routing: turns a send into the job its sender takes from the channel's
 * topic (`Topics.delivery(channel)`), or into the failure the log records. Rendering errors
 * (TemplateError) propagate; the router logs them the same way for every channel.
 */
export interface ChannelStrategy {
  readonly channel: Channel;
  compose(context: ComposeContext): Composition;
}

export const failed = (code: string, internal: string): Composition => ({ kind: 'failed', code, internal });

/** Why a channel's content is missing, naming the template the send asked for when there was one. */
export function missingContent(
  channel: Channel,
  field: string,
  missingTemplateId: string | undefined,
): string {
  return missingTemplateId === undefined
    ? `no inline ${field} and no default ${channel} template for this notification`
    : `no inline ${field} and template "${missingTemplateId}" does not exist for ${channel}`;
}
