import { aMemberToken, eventually } from '@notify/testing';
import { awaitLog } from './logs';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne, statusAndCode } from './all-in-one';

const OWNER = 'owner@notify.localhost';

interface OutboxMail {
  readonly trackingId?: string;
  readonly to: string[];
  readonly subject?: string;
  readonly html?: string;
}

/**
 * `POST /sender/test/email` through the pingram client (SenderApi.testEmail): content under test goes
 * through the pipeline to the caller, its merge tags filled with sample values, and is logged. The
 * default account's owner is the only member there; another tenant (`acct-other`, Oscar) is
 * written into the data directory before the service starts.
 */
describe('test email (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let key: string;
  let envId: string;

  const owner = aMemberToken({ email: OWNER });
  const oscar = aMemberToken({ email: 'oscar@other.example' });
  const pingram = (apiKey: string) => pingramIn(base, apiKey);
  const content = {
    notificationId: 'welcome',
    subject: 'Hello {{firstName}}',
    html: '<p>Order {{order.id}}</p><ul>{{#each items}}<li>{{name}}</li>{{/each}}</ul>',
    fromAddress: '',
    fromName: 'Acme',
  };
  const post = (path: string, as: string, body: unknown) =>
    callAs(base, path, as, { method: 'POST', body: JSON.stringify(body) });
  const refusal = statusAndCode;
  const mailOf = (trackingId: string) =>
    eventually(async () => {
      const response = await callAs(base, '/dev/outbox/email', key);
      const { messages } = (await response.json()) as { messages: OutboxMail[] };
      const mail = messages.find((m) => m.trackingId === trackingId);
      if (mail === undefined) throw new Error(`no mail of ${trackingId} yet`);
      return mail;
    }, 20_000);

  beforeAll(async () => {
    app = await startAllInOne('notify-test-email-', {
      tenants: [
        {
          accountId: 'acct-other',
          name: 'Other',
          members: [{ email: 'oscar@other.example', role: 'owner' }],
        },
      ],
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
    envId = (await pingram(key).environments.listEnvironments())[0]?.clientId ?? '';
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('delivers the content with sample values to a member of the account, logged under its tracking id', async () => {
    const answer = await pingram(key).sender.testEmail({ ...content, to: OWNER });
    expect(answer).toEqual({
      trackingId: expect.any(String),
      messages: [expect.stringContaining('notification type "welcome" does not exist')],
    });
    const mail = await mailOf(answer.trackingId);
    expect(mail.to).toEqual([OWNER]);
    expect(mail.subject).toBe('Hello [firstName]');
    expect(mail.html).toContain('<p>Order [order.id]</p><ul><li>[items.name]</li></ul>');
    const log = await awaitLog(pingram(key), answer.trackingId, (l) => l['email_delivered_at'] !== undefined);
    expect(log).toMatchObject({ trackingId: answer.trackingId, type: 'welcome' });
  });

  it("sends to a member's own address with their JWT, and refuses any other address (403)", async () => {
    const response = await post(`/sender/test/email?envId=${envId}`, owner, {
      ...content,
      to: OWNER.toUpperCase(),
    });
    expect(response.status).toBe(200);
    const { trackingId, messages } = (await response.json()) as { trackingId: string; messages: string[] };
    expect(messages).toEqual([]); // the first test email created the type, as any send does
    expect((await mailOf(trackingId)).subject).toBe('Hello [firstName]');
    expect(
      await refusal(
        await post(`/sender/test/email?envId=${envId}`, owner, { ...content, to: 'ann@example.com' }),
      ),
    ).toEqual({ status: 403, code: 'RECIPIENT_NOT_ALLOWED' });
  });

  it('refuses a stranger with an API key, and content that does not parse (400)', async () => {
    await expect(
      pingram(key).sender.testEmail({ ...content, to: 'stranger@example.com' }),
    ).rejects.toMatchObject({
      response: { status: 403 },
    });
    expect(
      await refusal(await post('/sender/test/email', key, { ...content, to: 'oscar@other.example' })),
    ).toEqual({
      status: 403,
      code: 'RECIPIENT_NOT_ALLOWED',
    });
    expect(
      await refusal(
        await post('/sender/test/email', key, { ...content, to: OWNER, html: '<p>{{#if x}}open</p>' }),
      ),
    ).toEqual({ status: 400, code: 'INVALID_TEMPLATE' });
    expect(
      await refusal(await post('/sender/test/email', key, { ...content, to: OWNER, fromAddress: 'nobody' })),
    ).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it("keeps another account out of the environment (404), even to the member's own address", async () => {
    expect(
      await refusal(
        await post(`/sender/test/email?envId=${envId}`, oscar, { ...content, to: 'oscar@other.example' }),
      ),
    ).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});
