import { Injectable } from '@nestjs/common';
import type { OutgoingMessage } from '@notify/bus';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Channel,
  channelStrategy,
  type DeliveryEvent,
  type EmailSuppressionStatus,
  hasInlineContent,
  isSensitiveSend,
  logPrefix,
  type LogFields,
  type SendRequested,
  type Template,
  TemplateError,
  TemplateRenderer,
  Topics,
  userKey,
  type UserFields,
} from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { channelFailed } from './channel-failed';
import { ComponentCache } from './component-cache';
import { type RoutedType, TypeCache } from './type-cache';
import { templateCacheBudget } from './template-cache-budget';

const PREVIEW_LIMIT = 4_096;
const clip = (text: string) => (text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}…` : text);

export interface DispatchOptions {
  readonly channel: Channel;
  readonly request: SendRequested;
  readonly type: RoutedType;
  readonly user: UserFields;
  readonly now: number;
  /** The stored user's email suppression, which the email channel honours. */
  readonly suppression?: EmailSuppressionStatus;
  /** The environment's email open/click tracking switch. */
  readonly emailTracking?: boolean;
}

/** What dispatching a send on one channel produced: its sender's job, log fields, or its failure. */
export interface Dispatched {
  readonly messages: OutgoingMessage[];
  readonly fields: LogFields;
  readonly events: DeliveryEvent[];
}

/**
 * Hands a send to one channel's sender: finds its template, composes the channel's job through the
 * channel's strategy, and answers the job (with a preview for the log, none for a sensitive send)
 * or the channel's failure.
 */
@Injectable()
export class ChannelDispatcher {
  private readonly renderer: TemplateRenderer;

  constructor(
    private readonly types: TypeCache,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() config: AppConfig,
    private readonly components: ComponentCache,
  ) {
    this.renderer = new TemplateRenderer(templateCacheBudget(config).compiled);
  }

  async dispatch(options: DispatchOptions): Promise<Dispatched> {
    const { channel, request, type, user, now, suppression, emailTracking } = options;
    const failed = (code: string, internal: string): Dispatched => ({
      messages: [],
      fields: {},
      events: [channelFailed(this.events, { request, channel, code, internal, now })],
    });
    const strategy = channelStrategy(channel);
    try {
      const scope = { accountId: request.accountId, envId: request.envId };
      const [{ template, missing }, components] = await Promise.all([
        this.template(request, type, channel),
        strategy.usesComponents ? this.components.sources(scope) : undefined,
      ]);
      const composed = strategy.compose({
        request,
        user,
        template,
        missingTemplateId: missing,
        renderer: this.renderer,
        ...(components !== undefined ? { components } : {}),
        ...(suppression !== undefined ? { suppression } : {}),
        ...(type.retention !== undefined ? { retention: type.retention } : {}),
        ...(emailTracking !== undefined ? { emailTracking } : {}),
      });
      if (composed.kind === 'failed') return failed(composed.code, composed.internal);
      return {
        messages: [
          {
            topic: Topics.delivery(channel),
            key: userKey(request.accountId, request.envId, request.send.userId),
            value: composed.job,
          },
        ],
        fields: isSensitiveSend(request.send)
          ? {}
          : ({ [`${logPrefix(channel)}_preview`]: clip(composed.preview) } as LogFields),
        events: [],
      };
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      const subject = {
        accountId: request.accountId,
        envId: request.envId,
        trackingId: request.trackingId,
        notificationId: request.send.notificationId,
      };
      const fields: LogFields = {
        failed_at: new Date(now).toISOString(),
        failed_code: 'UNKNOWN',
        failed_internal: `template error in ${error.message}`,
      };
      return {
        messages: [],
        fields: {},
        events: [this.events.event(subject, 'failed', fields, undefined, now)],
      };
    }
  }

  /** The chosen template, else the channel's default; `missing` names a chosen one that does not exist. */
  private async template(
    request: SendRequested,
    type: RoutedType,
    channel: Channel,
  ): Promise<{ template?: Template; missing?: string }> {
    const { send } = request;
    if (hasInlineContent(channel, send)) return {};
    // A digest uses its mode's default template (the batch variant), else the instant one.
    const mode = request.digest?.mode;
    const defaults = type.defaultTemplates?.[channel];
    const templateId =
      send.templateId ?? (mode !== undefined ? defaults?.[mode] : undefined) ?? defaults?.instant;
    if (templateId === undefined) return {};
    const template = await this.types.template(
      { accountId: request.accountId, envId: request.envId },
      { notificationId: send.notificationId, channel, templateId },
    );
    return template === undefined ? { missing: templateId } : { template };
  }
}
