import { createTwilioClient } from '@notify/providers';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { TwilioPeer } from './twilio-peer';

interface Callback {
  readonly url: string;
  readonly signature: string;
  readonly params: Record<string, string>;
}

/** A status-callback receiver, as the gateway would be. */
async function receiver(): Promise<{ server: Server; url: string; received: Callback[] }> {
  const received: Callback[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const port = (server.address() as AddressInfo).port;
      received.push({
        url: `http://127.0.0.1:${port}${request.url ?? ''}`,
        signature: String(request.headers['x-twilio-signature']),
        params: Object.fromEntries(new URLSearchParams(body)),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('TwilioPeer through the twilio SDK', () => {
  const peer = new TwilioPeer({ callbackDelayMs: 0, keep: 5 });
  let callbacks: Awaited<ReturnType<typeof receiver>>;
  let client: ReturnType<typeof createTwilioClient>;

  beforeAll(async () => {
    await peer.start();
    callbacks = await receiver();
    client = createTwilioClient({ accountSid: peer.accountSid, authToken: peer.authToken, apiUrl: peer.url });
  });

  afterAll(async () => {
    await peer.stop();
    await new Promise<void>((resolve) => callbacks.server.close(() => resolve()));
  });

  it('accepts an SMS, keeps it with its tracking id, and posts signed sent/delivered callbacks in order', async () => {
    const statusCallback = `${callbacks.url}/inbound/twilio/status?trackingId=t-1&envId=e`;
    const message = await client.messages.create({
      to: '+14155552671',
      from: '+15005550006',
      body: 'Hello',
      statusCallback,
    });
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message.status).toBe('queued');
    expect(peer.sms().at(-1)).toMatchObject({
      sid: message.sid,
      trackingId: 't-1',
      to: '+14155552671',
      from: '+15005550006',
      body: 'Hello',
      mediaUrls: [],
    });
    await until(() => callbacks.received.filter((c) => c.params.MessageSid === message.sid).length === 2);
    const mine = callbacks.received.filter((c) => c.params.MessageSid === message.sid);
    expect(mine.map((c) => c.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const callback of mine) {
      expect(callback.url).toBe(statusCallback);
      expect(twilio.validateRequest(peer.authToken, callback.signature, callback.url, callback.params)).toBe(
        true,
      );
      expect(twilio.validateRequest('0'.repeat(32), callback.signature, callback.url, callback.params)).toBe(
        false,
      );
    }
  });

  it('keeps the media URLs of an MMS, and lists messages by number', async () => {
    const message = await client.messages.create({
      to: '+14155552672',
      from: '+15005550006',
      body: 'Photo',
      mediaUrl: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'],
    });
    expect(message.numMedia).toBe('2');
    expect(peer.sms().at(-1)?.mediaUrls).toEqual([
      'https://cdn.example.com/a.png',
      'https://cdn.example.com/b.png',
    ]);
    const listed = await client.messages.list({
      to: '+14155552672',
      dateSentAfter: new Date(Date.now() - 60_000),
    });
    expect(listed.map((m) => [m.sid, m.body])).toEqual([[message.sid, 'Photo']]);
    expect(await client.messages.list({ to: '+14155559999' })).toEqual([]);
  });

  it('reports +15005550010 undelivered with 30005', async () => {
    const message = await client.messages.create({
      to: '+15005550010',
      from: '+15005550006',
      body: 'x',
      statusCallback: `${callbacks.url}/s`,
    });
    await until(() =>
      callbacks.received.some(
        (c) => c.params.MessageSid === message.sid && c.params.MessageStatus === 'undelivered',
      ),
    );
    expect(callbacks.received.find((c) => c.params.MessageStatus === 'undelivered')?.params.ErrorCode).toBe(
      '30005',
    );
  });

  it.each([
    ['+15005550001', 21211],
    ['+15005550002', 21612],
    ['+15005550004', 21610],
    ['+15005550009', 21614],
    ['4155552671', 21211],
  ])('refuses %s with Twilio error %d', async (to, code) => {
    const before = peer.deliveries();
    await expect(client.messages.create({ to, from: '+15005550006', body: 'x' })).rejects.toMatchObject({
      status: 400,
      code,
    });
    await expect(
      client.calls.create({ to, from: '+15005550006', twiml: '<Response/>' }),
    ).rejects.toMatchObject({ code });
    expect(peer.deliveries()).toBe(before);
  });

  it('refuses other credentials with 20003', async () => {
    const stranger = createTwilioClient({
      accountSid: peer.accountSid,
      authToken: 'f'.repeat(32),
      apiUrl: peer.url,
    });
    await expect(
      stranger.messages.create({ to: '+14155552671', from: '+15005550006', body: 'x' }),
    ).rejects.toMatchObject({
      status: 401,
      code: 20003,
    });
  });

  it('places a call, keeps the spoken text decoded, and posts a signed completed callback', async () => {
    const call = await client.calls.create({
      to: '+14155552673',
      from: '+15005550006',
      twiml: '<Response><Say>Tom &amp; Jerry &lt;3</Say></Response>',
      statusCallback: `${callbacks.url}/call?trackingId=t-call`,
    });
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(peer.calls().at(-1)).toMatchObject({ sid: call.sid, trackingId: 't-call', say: 'Tom & Jerry <3' });
    await until(() => callbacks.received.some((c) => c.params.CallSid === call.sid));
    const callback = callbacks.received.find((c) => c.params.CallSid === call.sid);
    expect(callback?.params).toMatchObject({ CallStatus: 'completed', To: '+14155552673' });
    expect(Number(callback?.params.CallDuration)).toBeGreaterThan(0);
    expect(
      twilio.validateRequest(
        peer.authToken,
        callback?.signature ?? '',
        callback?.url ?? '',
        callback?.params ?? {},
      ),
    ).toBe(true);
  });

  it('keeps at most `keep` messages, and forgets removed ones', async () => {
    for (let i = 0; i < 7; i++)
      await client.messages.create({ to: '+14155552674', from: '+15005550006', body: `m${i}` });
    expect(peer.sms()).toHaveLength(5);
    expect(peer.sms().at(-1)?.body).toBe('m6');
    const [first] = peer.sms();
    peer.remove('sms', [first?.id ?? '']);
    expect(peer.sms()).toHaveLength(4);
    expect(peer.sms().some((m) => m.id === first?.id)).toBe(false);
  });

  it("sends the <Message> of a messaging webhook's answer back to the phone, in the conversation's tracking id", async () => {
    await client.messages.create({
      to: '+14155552675',
      from: '+15005550006',
      body: 'Your table is ready',
      statusCallback: `${callbacks.url}/status?trackingId=t-conversation`,
    });
    const webhook = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          '<?xml version="1.0"?><Response><Message>Thanks &amp; see you &lt;soon&gt;</Message></Response>',
        ),
    );
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/inbound/twilio/sms`;
      expect(
        await peer.inboundSms(url, { from: '+14155552675', to: '+15005550006', body: 'On my way' }),
      ).toBe(200);
    } finally {
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
    }
    expect(peer.sms().at(-1)).toMatchObject({
      to: '+14155552675',
      from: '+15005550006',
      body: 'Thanks & see you <soon>',
      trackingId: 't-conversation',
    });
  });
});
