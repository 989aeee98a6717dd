import { Injectable } from '@nestjs/common';
import { DigestWindowsStore, type HoldOutcome } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type ChannelRouting,
  channelStrategy,
  type DeliveryEvent,
  MAX_DIGEST_ITEMS,
  nextDigestAt,
  type SendRequested,
  type UserFields,
} from '@notify/domain';
import { channelFailed } from './channel-failed';
import type { RoutedType } from './type-cache';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

export interface HoldForDigestOptions {
  readonly request: SendRequested;
  readonly type: RoutedType;
  readonly user: UserFields;
  /** A channel the routing decided to BATCH. */
  readonly routing: ChannelRouting;
  readonly now: number;
}

/**
 * Holds a send for its channel's digest (delivery hourly…monthly) or short batching window
 * (`instant.batching`): kept with the others of the same environment, user, type, channel (and
 * batching key) until the window closes, when the scheduler releases them as one message. A send
 * the window (or its environment) has no room for fails on that channel with its catch-all code.
 */
@Injectable()
export class HoldForDigestUseCase {
  constructor(
    private readonly windows: DigestWindowsStore,
    private readonly events: DeliveryEventsPublisher,
  ) {}

  async execute(options: HoldForDigestOptions): Promise<DeliveryEvent[]> {
    const { request, type, user, routing, now } = options;
    const { send } = request;
    const { channel } = routing;
    // BATCH routings carry a digest mode, or `instant` for a batching window; never `off`.
    const mode = routing.delivery === undefined || routing.delivery === 'off' ? 'instant' : routing.delivery;
    const channelOptions = type.options?.[channel];
    const batchingKey = channelOptions?.instant?.batchingKey;
    const group = {
      accountId: request.accountId,
      envId: request.envId,
      userId: send.userId,
      notificationId: send.notificationId,
      channel,
      mode,
      ...(mode === 'instant' && batchingKey !== undefined
        ? { batch: String(send.parameters[batchingKey] ?? '') }
        : {}),
    };
    const dueAt =
      mode === 'instant'
        ? await this.windows.batchingWindowEnd(
            group,
            now,
            Math.max(1_000, Math.round((channelOptions?.instant?.batchingWindow ?? 60) * 1_000)),
          )
        : nextDigestAt(now, mode, channelOptions, user.timezone);
    const held = await this.windows.holdUntil(
      group,
      dueAt,
      {
        trackingId: request.trackingId,
        receivedAt: request.receivedAt,
        test: request.test,
        request: request.request,
        send,
      },
      now,
    );
    if (held === 'held') return [];
    const code = channelStrategy(channel).unknownFailureCode;
    return [channelFailed(this.events, { request, channel, code, internal: this.notHeld(held), now })];
  }

  /** Why a send was not held for its digest: the window's caps, or its environment's, are reached. */
  private notHeld(outcome: Exclude<HoldOutcome, 'held'>): string {
    const { windowBytes, environmentBytes } = this.windows.limits;
    return outcome === 'window-full'
      ? `DIGEST_WINDOW_FULL: this window's digest holds its most ` +
          `(${MAX_DIGEST_ITEMS} sends or ${mb(windowBytes)} MB), so this send was not held`
      : `DIGEST_ENVIRONMENT_FULL: the environment's digest windows hold their most ` +
          `(${mb(environmentBytes)} MB), so this send was not held`;
  }
}
