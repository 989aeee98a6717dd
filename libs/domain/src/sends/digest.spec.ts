import { type DigestItem, digestRequest } from './digest';

const item = (n: number): DigestItem => ({
  trackingId: `t-${n}`,
  receivedAt: n,
  test: false,
  request: `{"n":${n}}`,
  send: {
    notificationId: 'news',
    userId: 'u',
    recipient: { email: 'u@example.com' },
    parameters: { n, name: 'Ann' },
    scheduledFor: 99,
    email: { subject: `s${n}`, html: 'h' },
  },
});

describe('digestRequest', () => {
  it('goes out as the first send, with the latest content, every parameter set and the count', () => {
    const request = digestRequest({ accountId: 'a', envId: 'e', channel: 'EMAIL', mode: 'daily' }, [
      item(1),
      item(2),
      item(3),
    ]);
    expect(request).toMatchObject({
      trackingId: 't-1',
      receivedAt: 1,
      request: '{"n":1}',
      digest: { channel: 'EMAIL', mode: 'daily', trackingIds: ['t-1', 't-2', 't-3'] },
      send: {
        forceChannels: ['EMAIL'],
        email: { subject: 's3' },
        parameters: {
          n: 3,
          name: 'Ann',
          count: 3,
          items: [
            { n: 1, name: 'Ann' },
            { n: 2, name: 'Ann' },
            { n: 3, name: 'Ann' },
          ],
        },
      },
    });
    expect(request?.send.scheduledFor).toBeUndefined();
  });

  it('is nothing without items', () => {
    expect(
      digestRequest({ accountId: 'a', envId: 'e', channel: 'EMAIL', mode: 'daily' }, []),
    ).toBeUndefined();
  });
});
