import { Topics } from '@notify/domain';
import { aReleasedDigest, aScope, aUser } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';

describe('SendDigestUseCase', () => {
  let h: RouterHarness;

  beforeEach(async () => {
    h = await routerHarness();
    h.clock.set('2026-01-05T10:00:00.000Z');
    await h.types.ensure(aScope(), 'welcome', ['EMAIL', 'SMS'], '2026-01-01T00:00:00.000Z');
  });

  afterEach(() => h.close());

  it("sends one message on the digest's channel and logs its routing on every batched send", async () => {
    await h.digest.execute(
      aReleasedDigest(
        ['trk-1', 'trk-2', 'trk-3'],
        {},
        {
          recipient: aUser(),
          email: { subject: '{{count}} updates', html: '<p>digest</p>' },
        },
      ),
    );
    expect(h.jobs()).toEqual([
      expect.objectContaining({
        topic: Topics.delivery('EMAIL'),
        value: expect.objectContaining({ trackingId: 'trk-1', subject: '3 updates' }),
      }),
    ]);
    for (const trackingId of ['trk-1', 'trk-2', 'trk-3'])
      expect(h.events().filter((e) => e.trackingId === trackingId)).toEqual([
        expect.objectContaining({
          event: 'digest_routed',
          time: Date.parse('2026-01-05T10:00:00.000Z'),
          fields: { email_preview: expect.stringContaining('digest') },
        }),
      ]);
  });

  it("logs the channel's failure on every batched send", async () => {
    await h.digest.execute(
      aReleasedDigest(['trk-1', 'trk-2'], { channel: 'SMS' }, { recipient: aUser(), templateId: 'gone' }),
    );
    expect(h.jobs()).toEqual([]);
    for (const trackingId of ['trk-1', 'trk-2'])
      expect(h.fieldsOf(trackingId, 'sms_failed')).toEqual([
        expect.objectContaining({ sms_failed_internal: expect.stringContaining('"gone" does not exist') }),
      ]);
  });

  it('sends nothing when its type was deleted meanwhile', async () => {
    await h.types.delete(aScope(), 'welcome');
    await h.digest.execute(aReleasedDigest(['trk-1'], {}, { email: { subject: 's', html: 'h' } }));
    expect(h.published).toEqual([]);
  });
});
