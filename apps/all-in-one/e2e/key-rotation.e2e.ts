import { aMemberToken, eventually, freePort } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne } from './all-in-one';

interface OutboxMail {
  readonly to: string[];
  readonly html?: string;
}

const newKey = () => randomBytes(32).toString('base64');

/**
 * Rotating SECRETS_KEY (deploy/OPERATIONS.md, "Rotation"): mail already sent carries tokens signed
 * with the old key (tracked links, invitation links). With the old key in SECRETS_PREVIOUS_KEYS
 * they keep working after the restart; once it is dropped, they are refused like forged ones.
 */
describe('SECRETS_KEY rotation keeps the links of mail already sent (all-in-one)', () => {
  const oldKey = newKey();
  const currentKey = newKey();
  let app: AllInOne;
  let key: string;
  let clickLink: string;
  let inviteToken: string;

  const call = (path: string, init: RequestInit = {}) => callAs(app.baseUrl, path, key, init);
  const mailTo = (to: string) =>
    eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email')).json()) as { messages: OutboxMail[] };
      const mail = messages.find((m) => m.to.includes(to));
      if (mail?.html === undefined) throw new Error(`no mail to ${to} yet`);
      return mail.html;
    }, 20_000);
  const click = () => fetch(clickLink, { redirect: 'manual' });
  const acceptInvite = () =>
    fetch(`${app.baseUrl}/profile/accept_invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: inviteToken }),
    });

  beforeAll(async () => {
    const port = String(await freePort());
    app = await startAllInOne('notify-key-rotation-', {
      env: { PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}`, SECRETS_KEY: oldKey },
    });
    key = await bootstrapKey(app);

    // Sent under the old key: a tracked link, and an invitation's single-use link.
    const sent = await call('/email', {
      method: 'POST',
      body: JSON.stringify({
        type: 'news',
        to: 'ann@example.com',
        subject: 'News',
        html: '<p><a href="https://example.com/news">Read</a></p>',
      }),
    });
    expect(sent.status).toBe(200);
    clickLink = /href="([^"]+\/t\/c\/[^"]+)"/.exec(await mailTo('ann@example.com'))?.[1] ?? '';
    expect(clickLink).not.toBe('');
    const owner = aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
    await pingramIn(app.baseUrl, owner).members.inviteMember('unused', { email: 'dora@example.com' });
    inviteToken = /accept_invite\?token=([A-Za-z0-9_.-]+)/.exec(await mailTo('dora@example.com'))?.[1] ?? '';
    expect(inviteToken).not.toBe('');
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('refuses the old links once the old key is dropped, and takes them again with it in SECRETS_PREVIOUS_KEYS', async () => {
    // Rotated, the old key forgotten (another key is the previous one): the links are foreign.
    await app.restart({ SECRETS_KEY: currentKey, SECRETS_PREVIOUS_KEYS: newKey() });
    expect((await click()).status).toBe(404);
    const refused = await acceptInvite();
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('INVALID_TOKEN');

    // The old key kept among the previous ones, as OPERATIONS says: both links work.
    await app.restart({ SECRETS_KEY: currentKey, SECRETS_PREVIOUS_KEYS: `${newKey()},${oldKey}` });
    const clicked = await click();
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get('location')).toBe('https://example.com/news');
    const accepted = await acceptInvite();
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ success: true, inviteeEmail: 'dora@example.com' });
  }, 120_000);
});
