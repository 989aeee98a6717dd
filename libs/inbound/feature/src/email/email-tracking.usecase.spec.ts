import { EmbeddedCoordinationStore, TrackingLimitsStore } from '@notify/cache';
import type { DeliveryEventsPublisher, PreferenceChanges } from '@notify/delivery-events';
import type { TrackingPayload } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { EmailTrackingUseCase } from './email-tracking.usecase';
import { TrackingTokens } from './tracking-tokens';

describe('EmailTrackingUseCase', () => {
  const config = loadAppConfig({ TRACKING_OPEN_WINDOW_SECONDS: '3600', TRACKING_REQUESTS_PER_MINUTE: '5' });
  const open: TrackingPayload = { k: 'o', a: 'acct', e: 'env', t: 'track-1', u: 'ann', n: 'news' };
  let store: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let published: string[];
  let failPublish: boolean;
  let tracking: EmailTrackingUseCase;
  let clock: FakeClock;

  beforeEach(async () => {
    const dir = await tempDir('notify-tracking-');
    remove = dir.remove;
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    clock = new FakeClock();
    published = [];
    failPublish = false;
    const events = {
      event: (subject: { trackingId: string }, name: string) => `${name}:${subject.trackingId}`,
      publish: async (...batch: string[]) => {
        if (failPublish) throw new Error('bus down');
        published.push(...batch);
      },
    } as unknown as DeliveryEventsPublisher;
    tracking = new EmailTrackingUseCase(
      events,
      {} as PreferenceChanges,
      new TrackingTokens(config),
      new TrackingLimitsStore(store),
      config,
      testLogger('tracking'),
      clock,
    );
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  it('records one open per message in the window, however often the pixel is fetched', async () => {
    await Promise.all(Array.from({ length: 50 }, () => tracking.opened(open, { ip: '203.0.113.9' })));
    await tracking.opened({ ...open, t: 'track-2' }, {});
    expect(published).toEqual(['email_opened:track-1', 'email_opened:track-2']);
  });

  it('counts an open again after its recording failed (the window is not spent on a lost open)', async () => {
    failPublish = true;
    await expect(tracking.opened(open, {})).rejects.toThrow('bus down');
    failPublish = false;
    await tracking.opened(open, {});
    await tracking.opened(open, {});
    expect(published).toEqual(['email_opened:track-1']);
  });

  it('lets each client address make TRACKING_REQUESTS_PER_MINUTE requests with unknown tokens, then says when to retry', async () => {
    // Half way through a minute: the next one starts 30 s later.
    clock.set(1_700_000_010_000);
    for (let i = 0; i < 5; i++) expect(await tracking.throttled('203.0.113.9', undefined)).toBeUndefined();
    expect(await tracking.throttled('203.0.113.9', undefined)).toBe(30);
    expect(await tracking.throttled('198.51.100.4', undefined)).toBeUndefined();
    clock.advance(30_000);
    expect(await tracking.throttled('203.0.113.9', undefined)).toBeUndefined();
  });

  it("counts a valid link's requests per message, not per address (proxies fetch for many readers)", async () => {
    clock.set(1_700_000_010_000);
    const click: TrackingPayload = { ...open, k: 'c', l: 'https://example.com' };
    // The proxy's address is spent on unknown tokens; valid links through it still work.
    for (let i = 0; i < 6; i++) await tracking.throttled('203.0.113.9', undefined);
    expect(await tracking.throttled('203.0.113.9', click)).toBeUndefined();
    for (let i = 0; i < 4; i++) await tracking.throttled(`198.51.100.${i}`, click);
    // The message's sixth request this minute, from whichever address.
    expect(await tracking.throttled('192.0.2.1', click)).toBe(30);
    expect(await tracking.throttled('192.0.2.1', { ...click, t: 'track-2' })).toBeUndefined();
  });
});
