import { LogLevel, WebClient } from '@slack/web-api';
import { SlackPeer } from './slack-peer';

describe('SlackPeer through @slack/web-api', () => {
  const peer = new SlackPeer({ keep: 50 });
  const client = (token: string | undefined, trackingId?: string) =>
    new WebClient(token, {
      slackApiUrl: peer.url,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 1, factor: 1, minTimeout: 10, maxTimeout: 10 },
      ...(trackingId !== undefined ? { headers: { 'x-notify-tracking-id': trackingId } } : {}),
    });

  beforeAll(() => peer.start());
  afterAll(() => peer.stop());

  it('keeps a posted message with every option and the tracking id', async () => {
    const answer = await client('xoxb-1', 't-1').chat.postMessage({
      channel: '#general',
      text: 'Deployed',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*v1*' } }],
      thread_ts: '1700000000.000100',
      reply_broadcast: true,
      username: 'deploybot',
      icon_emoji: ':rocket:',
      unfurl_links: false,
      metadata: { event_type: 'deploy', event_payload: { id: 7 } },
    });
    expect(answer).toMatchObject({
      ok: true,
      channel: 'C0GENERAL',
      ts: expect.stringMatching(/^\d+\.\d{6}$/),
    });
    expect(peer.messages().at(-1)).toEqual({
      id: expect.any(String),
      receivedAt: expect.any(String),
      trackingId: 't-1',
      token: 'xoxb-1',
      channel: '#general',
      channelId: 'C0GENERAL',
      ts: answer.ts,
      text: 'Deployed',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*v1*' } }],
      thread_ts: '1700000000.000100',
      reply_broadcast: true,
      username: 'deploybot',
      icon: ':rocket:',
      unfurl_links: false,
      metadata: { event_type: 'deploy', event_payload: { id: 7 } },
    });
  });

  it.each([
    ['general', 'C0GENERAL'],
    ['C0RANDOM', 'C0RANDOM'],
    ['U0ANN', 'D00ANN'],
  ])('resolves %s to %s', async (channel, id) => {
    expect((await client('xoxb-1').chat.postMessage({ channel, text: 'x' })).channel).toBe(id);
  });

  it.each([
    ['#missing', 'xoxb-1', 'channel_not_found'],
    ['#nowhere', 'xoxb-1', 'channel_not_found'],
    ['#archived', 'xoxb-1', 'is_archived'],
    ['#no-bot', 'xoxb-1', 'not_in_channel'],
    ['#general', 'xoxb-expired', 'token_expired'],
    ['#general', 'not-a-token', 'invalid_auth'],
  ])('answers %s with token %s as Slack does: %s', async (channel, token, error) => {
    const before = peer.deliveries();
    await expect(client(token).chat.postMessage({ channel, text: 'x' })).rejects.toMatchObject({
      data: { ok: false, error },
    });
    expect(peer.deliveries()).toBe(before);
  });

  it('refuses a message with neither text nor blocks, and an overlong text', async () => {
    await expect(client('xoxb-1').chat.postMessage({ channel: '#general', text: '' })).rejects.toMatchObject({
      data: { error: 'no_text' },
    });
    await expect(
      client('xoxb-1').chat.postMessage({ channel: '#general', text: 'x'.repeat(40_001) }),
    ).rejects.toMatchObject({ data: { error: 'msg_too_long' } });
  });

  it('rate-limits the first message to #ratelimited; the SDK waits Retry-After and posts it once', async () => {
    const before = peer.deliveries();
    const started = Date.now();
    await client('xoxb-1').chat.postMessage({ channel: '#ratelimited', text: 'later' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(peer.deliveries()).toBe(before + 1);
  });

  it('exchanges any OAuth code once except the rehearsal code invalid_code', async () => {
    const oauth = client(undefined).oauth.v2;
    const exchange = (code: string) =>
      oauth.access({ client_id: peer.clientId, client_secret: peer.clientSecret, code });
    expect(await exchange('4b6f1e2a.from-the-real-redirect')).toMatchObject({
      ok: true,
      access_token: expect.stringMatching(/^xoxb-/),
    });
    await expect(exchange('4b6f1e2a.from-the-real-redirect')).rejects.toMatchObject({
      data: { error: 'invalid_code' },
    });
    await expect(exchange('invalid_code')).rejects.toMatchObject({ data: { error: 'invalid_code' } });
  });

  it('exchanges an OAuth code once, and rotates tokens with refresh_token', async () => {
    const oauth = client(undefined).oauth.v2;
    const code = peer.issueCode();
    const first = await oauth.access({
      client_id: peer.clientId,
      client_secret: peer.clientSecret,
      code,
      redirect_uri: 'https://app.test/cb',
    });
    expect(first).toMatchObject({
      ok: true,
      access_token: expect.stringMatching(/^xoxb-/),
      refresh_token: expect.stringMatching(/^xoxe-1-/),
      expires_in: 43_200,
      team: { id: 'T0LOCAL' },
    });
    await expect(
      oauth.access({
        client_id: peer.clientId,
        client_secret: peer.clientSecret,
        code,
        redirect_uri: 'https://app.test/cb',
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_code' } });
    await expect(
      oauth.access({ client_id: peer.clientId, client_secret: 'wrong', code: peer.issueCode() }),
    ).rejects.toMatchObject({ data: { error: 'bad_client_secret' } });

    const refreshed = await oauth.access({
      client_id: peer.clientId,
      client_secret: peer.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
    });
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect(peer.refreshes()).toBe(1);
    await expect(
      oauth.access({
        client_id: peer.clientId,
        client_secret: peer.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_refresh_token' } });
  });

  it('pages through channels and users with cursors', async () => {
    const channels: string[] = [];
    for await (const page of client('xoxb-1').paginate('conversations.list', {
      limit: 2,
      exclude_archived: true,
    })) {
      channels.push(...((page as { channels?: { name: string }[] }).channels ?? []).map((c) => c.name));
    }
    expect(channels).toEqual(['general', 'random', 'alerts', 'no-bot', 'ratelimited']);
    const users = await client('xoxb-1').users.list({ limit: 1 });
    expect(users.members?.map((u) => u.id)).toEqual(['U0ANN']);
    expect(users.response_metadata?.next_cursor).not.toBe('');
  });

  it('forgets removed messages and keeps at most `keep`', async () => {
    const [first] = peer.messages();
    peer.remove([first?.id ?? '']);
    expect(peer.messages().some((m) => m.id === first?.id)).toBe(false);
    for (let i = 0; i < 60; i++)
      await client('xoxb-1').chat.postMessage({ channel: 'C0ALERTS', text: `m${i}` });
    expect(peer.messages()).toHaveLength(50);
    expect(peer.messages().at(-1)?.text).toBe('m59');
  });
});
