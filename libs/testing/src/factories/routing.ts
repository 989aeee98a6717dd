import type { Channel, DeliveryMode, DigestItem, NormalizedSend, SendRequested } from '@notify/domain';
import { aScope, aSend, aSendRequest } from './sends';

/** One send held for a digest: `trk-<n>` with parameter `n`, received at `n`. */
export const aDigestItem = (n: number, send: Partial<NormalizedSend> = {}): DigestItem => ({
  trackingId: `trk-${n}`,
  receivedAt: n,
  test: false,
  request: '{}',
  send: aSend({ parameters: { n }, ...send }),
});

/** The sends that go out as one digest: user `u-1`'s `welcome` sends on email, hourly. */
export const aDigestGroup = (
  group: Partial<{ channel: Channel; mode: DeliveryMode; batch: string; userId: string; envId: string }> = {},
) => ({
  ...aScope(group.envId !== undefined ? { envId: group.envId } : {}),
  userId: group.userId ?? 'u-1',
  notificationId: 'welcome',
  channel: group.channel ?? 'EMAIL',
  mode: group.mode ?? 'hourly',
  ...(group.batch !== undefined ? { batch: group.batch } : {}),
});

/** A digest the scheduler released for the given tracking ids (the first's is its own). */
export const aReleasedDigest = (
  trackingIds: readonly string[] = ['trk-1', 'trk-2'],
  digest: Partial<{ channel: Channel; mode: DeliveryMode }> = {},
  send: Partial<NormalizedSend> = {},
): SendRequested & { digest: NonNullable<SendRequested['digest']> } => {
  const channel = digest.channel ?? 'EMAIL';
  return {
    ...aSendRequest({
      trackingId: trackingIds[0] ?? 'trk-1',
      send: { forceChannels: [channel], parameters: { count: trackingIds.length }, ...send },
    }),
    digest: { channel, mode: digest.mode ?? 'hourly', trackingIds: [...trackingIds] },
  };
};
