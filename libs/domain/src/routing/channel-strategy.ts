import type { Channel } from '../channels/channel';
import type { ComponentSources } from '../components/component';
import type { TemplateRenderer } from '../rendering/template-renderer';
import type { NormalizedSend, SendRequested } from '../sends/send-request';
import type { Template, TemplateContent } from '../templates/template';
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
  /** The environment's components, which email HTML uses as partials (`{{> componentId}}`). */
  readonly components?: ComponentSources;
  /** The stored user's email suppression (a bounce or complaint), when there is one. */
  readonly suppression?: EmailSuppressionStatus;
  /** The notification type's `retention` in days, when it has one (in-app items expire after it). */
  readonly retention?: number;
  /** The environment tracks email opens and clicks (its `emailTracking`, on unless turned off). */
  readonly emailTracking?: boolean;
}

/**
 * Renders one field of a template for a preview, as the channel's compose renders it: the field is
 * named as the template names it (`subject`, `instant.title`, `blocks`). A field that fails to
 * render is reported by the caller and answers undefined; so does an unset one.
 */
export interface PreviewRender {
  /** Merge tags inserted as given (subjects, SMS, push, Slack). */
  text(field: string, source: string | undefined): string | undefined;
  /** Merge tags HTML-escaped, the environment's components as partials (email bodies). */
  html(field: string, source: string | undefined): string | undefined;
}

export type Composition =
  /** A job for the channel's sender, and the log's preview of what it will send. */
  | { readonly kind: 'job'; readonly job: object; readonly preview: string }
  /** Nothing can be sent: the spec's failure code for the channel, and why. */
  | { readonly kind: 'failed'; readonly code: string; readonly internal: string };

/**
 * Everything shared code knows about one channel, so that it never names one: the channel's
 * fields in the delivery log, how to tell whether a user can be reached on it and whether a send
 * carries its own content for it, its catch-all failure code, and how a send becomes the job its
 * sender takes from the channel's topic (`Topics.delivery(channel)`) or the failure the log
 * records. Rendering errors (TemplateError) propagate; the router logs them the same way for every
 * channel. Each channel's strategy lives in its own folder; the registry lists them.
 */
export interface ChannelStrategy {
  readonly channel: Channel;
  /** The prefix of the channel's fields in the delivery log (`<prefix>_sent_at`, `<prefix>_failed`…). */
  readonly logPrefix: string;
  /**
   * The failure code the channel logs when nothing more specific applies (a full digest window, a
   * sender that gave up), spelled as the channel's own list of codes spells it.
   */
  readonly unknownFailureCode: string;
  /**
   * Whether a digest delivery mode (a preference or type default other than `instant`) holds the
   * channel's sends for a digest; a channel shown at once or not at all sends them right away.
   */
  readonly digestible: boolean;
  /** The user's fields the channel delivers to: a change to one of them is stored before routing. */
  readonly contactFields: readonly (keyof UserFields)[];
  /** Whether the user has some contact on the channel (a notification type created on first use lists it). */
  hasContact(user: UserFields): boolean;
  /** What the user lacks to be reached on the channel (for the send's warnings), or undefined. */
  contactGap(user: UserFields): string | undefined;
  /** Whether the channel's content uses the environment's components (then they are read for compose). */
  readonly usesComponents?: true;
  /** Whether the send carries its own content for the channel (then no template is looked up). */
  hasInlineContent(send: NormalizedSend): boolean;
  compose(context: ComposeContext): Composition;
  /**
   * A template's content as the channel would send it, for the console's preview: the same fields
   * rendered the same way as compose renders a template, with no recipient.
   */
  preview(content: TemplateContent, render: PreviewRender): Record<string, unknown>;
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
