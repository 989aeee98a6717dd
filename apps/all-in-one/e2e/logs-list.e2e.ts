import { aMemberToken, eventually, freePort, uniqueName } from '@notify/testing';
import { createTransport } from 'nodemailer';
import { CreateKeyRequestKeyTypeEnum, type GetLogsResponseMessagesInner, type Pingram } from 'pingram';
import {
  type AllInOne,
  bootstrapKey,
  callAs,
  failedResponse,
  pingramIn,
  startAllInOne,
  statusAndCode,
} from './all-in-one';
import { awaitLog } from './logs';

const MAIL_DOMAIN = 'inbound.notify.test';

/**
 * The delivery log as a list of events (`GET /logs`), the most recently active records
 * (`GET /logs/tail`) and the retention (`GET /logs/retention`), through the pingram client
 * (LogsApi getLogs, tailLogs, getLogRetention), over real sends and an inbound email. Another
 * environment's key sees none of it.
 */
describe('delivery log list, tail and retention (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let keyA: string;
  let envA: string;
  let keyB: string;
  let smtpPort: number;
  const sent: string[] = [];
  let inboundTrackingId = '';

  const owner = aMemberToken({ email: 'owner@notify.localhost' });
  const client = (key: string, envId?: string): Pingram => pingramIn(base, key, envId);

  /** Every event of the environment, page by page, and the size of each page. */
  async function allPages(pingram: Pingram, limit: number) {
    const messages: GetLogsResponseMessagesInner[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await pingram.logs.getLogs(limit, cursor);
      messages.push(...page.messages);
      sizes.push(page.messages.length);
      cursor = page.nextCursor;
    } while (cursor !== undefined && sizes.length < 100);
    return { messages, sizes };
  }

  beforeAll(async () => {
    smtpPort = await freePort();
    app = await startAllInOne('notify-logs-list-', {
      env: {
        LOG_RETENTION_DAYS: '45',
        INBOUND_SMTP_PORT: String(smtpPort),
        INBOUND_MAIL_DOMAIN: MAIL_DOMAIN,
      },
    });
    base = app.baseUrl;
    keyA = await bootstrapKey(app);
    envA = (await client(keyA).environments.listEnvironments())[0]?.clientId ?? '';
    const envB = (await client(owner).environments.createEnvironment({ title: 'Staging' })).clientId;
    keyB = (
      await client(owner).keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.SECRET,
        name: 'b',
        environmentId: envB,
      })
    ).key;
    for (const n of [1, 2, 3]) {
      const { trackingId } = await client(keyA).send({
        type: 'order_shipped',
        to: { id: uniqueName('ann'), email: `ann${n}@example.test` },
        email: { subject: `Order ${n}`, html: `<p>Order ${n} is on its way.</p>` },
      });
      sent.push(trackingId);
    }
    for (const trackingId of sent)
      await awaitLog(client(keyA), trackingId, (l) => l['email_delivered_at'] !== undefined);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('lists every event of the environment newest first, a page at a time, none skipped or repeated', async () => {
    const whole = await client(keyA).logs.getLogs(100);
    expect(whole.nextCursor).toBeUndefined();
    const paged = await allPages(client(keyA), 4);
    expect(paged.messages).toEqual(whole.messages);
    expect(paged.sizes.slice(0, -1).every((size) => size === 4)).toBe(true);
    expect(paged.sizes.length).toBe(Math.ceil(whole.messages.length / 4));

    const times = whole.messages.map((m) => m.epochMs);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const message of whole.messages)
      expect(message.timestamp).toBe(new Date(message.epochMs).toISOString());
    for (const trackingId of sent) {
      const events = whole.messages.filter((m) => m.trackingId === trackingId).map((m) => m.eventType);
      expect(events).toEqual(expect.arrayContaining(['request_received', 'email_sent', 'email_delivered']));
      expect(new Set(events).size).toBe(events.length);
    }
    // The default page is 50 events.
    expect((await client(keyA).logs.getLogs()).messages).toEqual(whole.messages.slice(0, 50));
  });

  it('lists an inbound email with the message its log keeps', async () => {
    const prefix = uniqueName('help').slice(0, 24).replace(/-+$/, '');
    await client(keyA).addresses.createAddress({ prefix });
    const subject = uniqueName('question');
    await createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true }).sendMail({
      from: { name: 'Ann Asker', address: 'ann@example.org' },
      to: `${prefix}@${MAIL_DOMAIN}`,
      cc: 'colleague@example.org',
      subject,
      text: 'Is it shipped?',
      html: '<p>Is it shipped?</p>',
    });
    const inbound = await eventually(async () => {
      const { messages } = await client(keyA).logs.getLogs(10);
      const found = messages.find((m) => m.eventType === 'email_inbound' && m.subject === subject);
      if (found === undefined) throw new Error('no email_inbound listed yet');
      return found;
    }, 20_000);
    expect(inbound).toEqual({
      trackingId: expect.any(String),
      eventType: 'email_inbound',
      timestamp: expect.any(String),
      epochMs: expect.any(Number),
      inbox: `${prefix}@${MAIL_DOMAIN}`,
      from: 'ann@example.org',
      fromName: 'Ann Asker',
      subject,
      to: [`${prefix}@${MAIL_DOMAIN}`],
      cc: ['colleague@example.org'],
      bodyText: 'Is it shipped?',
      bodyHtml: '<p>Is it shipped?</p>',
      messageId: expect.stringMatching(/^<.+>$/),
      resolutionType: 'builtin',
    });
    inboundTrackingId = inbound.trackingId;
  });

  it('tails the most recently active records, newest first, as GET /logs/{trackingIds} shows them', async () => {
    const { logs } = await client(keyA).logs.tailLogs();
    const ids = logs.map((l) => l.trackingId);
    expect(ids[0]).toBe(inboundTrackingId);
    expect(ids).toEqual(expect.arrayContaining(sent));
    expect(new Set(ids).size).toBe(ids.length);
    expect(logs.length).toBeLessThanOrEqual(100);
    const [record] = (await client(keyA).logs.getLogsByTrackingIds(sent[0] ?? '')).logs;
    expect(logs.find((l) => l.trackingId === sent[0])).toEqual(record);
    // Newest first: by each record's latest event, as the list shows them.
    const { messages } = await client(keyA).logs.getLogs(100);
    const latest = (trackingId: string) =>
      Math.max(...messages.filter((m) => m.trackingId === trackingId).map((m) => m.epochMs));
    const order = ids.map(latest);
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });

  it('answers the retention LOG_RETENTION_DAYS sets', async () => {
    expect(await client(keyA).logs.getLogRetention()).toEqual({ retentionInDays: 45 });
  });

  it('routes /logs/tail and /logs/retention before tracking ids', async () => {
    for (const path of ['/logs/tail', '/logs/retention']) {
      const response = await callAs(base, path, keyA);
      expect(response.status).toBe(200);
      expect(await response.text()).not.toContain('No delivery log');
    }
  });

  it("shows another environment's key none of it, nor lets it name this environment (404)", async () => {
    expect(await client(keyB).logs.getLogs()).toEqual({ messages: [] });
    expect(await client(keyB).logs.tailLogs()).toEqual({ logs: [] });
    expect(await statusAndCode(await failedResponse(client(keyB, envA).logs.getLogs()))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    // A cursor of this environment names nothing in another.
    const { nextCursor } = await client(keyA).logs.getLogs(1);
    expect(await statusAndCode(await failedResponse(client(keyB).logs.getLogs(1, nextCursor)))).toEqual({
      status: 400,
      code: 'INVALID_CURSOR',
    });
  });

  it('lets a member read the environment it names, and refuses a public key (403)', async () => {
    const asOwner = await client(owner, envA).logs.getLogs(5);
    expect(asOwner.messages).toEqual((await client(keyA).logs.getLogs(5)).messages);
    expect(await client(owner, envA).logs.getLogRetention()).toEqual({ retentionInDays: 45 });
    const publicKey = await client(owner).keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.PUBLIC,
      name: 'browser',
      environmentId: envA,
    });
    for (const path of ['/logs', '/logs/tail', '/logs/retention'])
      expect(await statusAndCode(await callAs(base, path, publicKey.key))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
  });

  it('refuses a limit that is not 1 to 100, and a cursor it did not give, with 400 and the error body', async () => {
    for (const limit of ['0', '101', '2.5', 'ten']) {
      const response = await callAs(base, `/logs?limit=${limit}`, keyA);
      expect(await statusAndCode(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    const { nextCursor = '' } = await client(keyA).logs.getLogs(2);
    const [payload = '', digest = ''] = nextCursor.split('.');
    const tampered = `${Buffer.from(JSON.stringify([Date.now(), 'evt-x'])).toString('base64url')}.${digest}`;
    for (const cursor of ['garbage', tampered, `${payload}.${digest}x`, '%ff%fe']) {
      const response = await callAs(base, `/logs?cursor=${encodeURIComponent(cursor)}`, keyA);
      const body = (await response.json()) as {
        trackingId: string;
        error: { code: string; message: string };
      };
      expect(response.status).toBe(400);
      expect(body).toEqual({
        trackingId: expect.any(String),
        error: { code: 'INVALID_CURSOR', message: expect.any(String), fix: expect.any(String) },
      });
    }
  });
});
