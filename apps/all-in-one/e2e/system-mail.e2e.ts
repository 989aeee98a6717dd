import { aMemberToken, eventually, freePort } from '@notify/testing';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne } from './all-in-one';

interface OutboxMail {
  readonly trackingId?: string;
  readonly to: string[];
  readonly html?: string;
}

/**
 * The service's own membership mails carry single-use links: they go through the account's email
 * pipeline like any email, but its delivery log (which every member reads) keeps only their
 * outcome, and the links reach the recipient untouched by click tracking. The service runs with
 * PUBLIC_URL set, so ordinary emails are tracked: the contrast shows the mark is what differs,
 * and that an API body cannot set it.
 */
describe('membership mails are logged without content and untracked (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let key: string;

  const call = (path: string, init: RequestInit = {}) => callAs(base, path, key, init);
  const mailTo = (to: string) =>
    eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email')).json()) as { messages: OutboxMail[] };
      const mail = messages.find((m) => m.to.includes(to));
      if (mail?.trackingId === undefined) throw new Error(`no mail to ${to} yet`);
      return { ...mail, trackingId: mail.trackingId };
    }, 20_000);
  const deliveredLog = (trackingId: string) =>
    eventually(async () => {
      const { logs } = (await (await call(`/logs/${trackingId}`)).json()) as {
        logs?: Record<string, unknown>[];
      };
      const log = logs?.[0];
      if (log?.['email_delivered_at'] === undefined) throw new Error(`${trackingId} not delivered yet`);
      return log;
    }, 20_000);

  beforeAll(async () => {
    const port = String(await freePort());
    app = await startAllInOne('notify-system-mail-', {
      env: { PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('logs an invitation sent and delivered with no trace of its link, which reaches the mailbox as it was', async () => {
    const owner = aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
    await pingramIn(base, owner).members.inviteMember('unused', {
      email: 'dora@example.com',
    });
    const mail = await mailTo('dora@example.com');
    const link = new RegExp(`href="${base}/profile/accept_invite\\?token=[A-Za-z0-9_.-]+"`);
    expect(mail.html).toMatch(link);
    expect(mail.html).not.toContain('/t/c/');
    expect(mail.html).not.toContain('/t/o/');

    const log = await deliveredLog(mail.trackingId);
    expect(log).toMatchObject({
      type: 'notify_member_invitation',
      email_routing: 'SEND',
      email_sent_at: expect.any(String),
      email_delivered_at: expect.any(String),
    });
    expect(Object.keys(log).filter((field) => field.endsWith('_preview'))).toEqual([]);
    expect(JSON.stringify(log)).not.toContain('accept_invite?token=');
  });

  it('tracks and previews an email whose API body claims to be sensitive, like any other', async () => {
    const response = await call('/email', {
      method: 'POST',
      body: JSON.stringify({
        type: 'news',
        to: 'eve@example.com',
        subject: 'News',
        html: '<p><a href="https://example.com/news">Read</a></p>',
        sensitive: true,
      }),
    });
    expect(response.status).toBe(200);
    const mail = await mailTo('eve@example.com');
    expect(mail.html).toContain(`href="${base}/t/c/`);
    expect(mail.html).toContain(`${base}/t/o/`);
    const log = await deliveredLog(mail.trackingId);
    expect(JSON.parse(String(log['email_preview']))).toMatchObject({ subject: 'News' });
  });
});
