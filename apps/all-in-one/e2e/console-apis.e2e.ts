import { newApiKey } from '@notify/gateway-auth';
import { aMemberToken, uniqueName } from '@notify/testing';
import { CreateKeyRequestKeyTypeEnum, type Pingram } from 'pingram';
import { type AllInOne, callAs, pingramIn, startAllInOne, statusAndCode } from './all-in-one';
import { awaitLog } from './logs';

interface TimelineEvent {
  eventId: string;
  event: string;
  timestamp: string;
  epochMs: number;
  fields: Record<string, string | number | boolean>;
}

interface Preview {
  rendered: Record<string, unknown>;
  parameters: Record<string, unknown>;
  problems: { field: string; message: string }[];
}

const MEMBER = 'mia@example.test';
const RIVAL = 'rita@rival.example';

/**
 * The operations the web console adds to the public API, against the all-in-one service as `npm
 * start` runs it: a send's timeline (`GET /logs/{trackingId}/events`) over real sends through the
 * local peers, and the template preview (`POST /notifications/{id}/{channel}/templates/preview`).
 * Another environment or account gets 404 for both; any member may use both.
 */
describe('console APIs: send timeline and template preview (all-in-one)', () => {
  let app: AllInOne;
  const key = newApiKey();
  let envA = '';
  let keyB = '';
  let smsType = '';

  const client = (as: string, envId?: string): Pingram => pingramIn(app.baseUrl, as, envId);
  const owner = () => aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
  const member = () => aMemberToken({ email: MEMBER, sub: 'sub-mia' });
  const rival = () => aMemberToken({ email: RIVAL, sub: 'sub-rita' });
  const get = (path: string, as: string) => callAs(app.baseUrl, path, as);
  const post = (path: string, as: string, body: unknown) =>
    callAs(app.baseUrl, path, as, { method: 'POST', body: JSON.stringify(body) });
  const timeline = async (trackingId: string, as = key, query = '') => {
    const response = await get(`/logs/${encodeURIComponent(trackingId)}/events${query}`, as);
    expect(response.status).toBe(200);
    return ((await response.json()) as { events: TimelineEvent[] }).events;
  };
  const previewPath = (type: string, channel: string) =>
    `/notifications/${type}/${channel}/templates/preview`;
  const preview = async (body: unknown, as = key, query = '') => {
    const response = await post(`${previewPath(smsType, 'SMS')}${query}`, as, body);
    expect(response.status).toBe(200);
    return (await response.json()) as Preview;
  };

  beforeAll(async () => {
    // A plain member of the default account, and another account with an environment of its own.
    app = await startAllInOne('notify-console-apis-', {
      provisionWithKey: key,
      tenants: [
        { accountId: 'default', create: false, members: [{ email: MEMBER, role: 'member' }] },
        {
          accountId: 'rival',
          environments: [{ envId: 'rival-env' }],
          members: [{ email: RIVAL, role: 'owner' }],
        },
      ],
      now: new Date().toISOString(),
    });
    envA = (await client(key).environments.listEnvironments())[0]?.clientId ?? '';
    const envB = (await client(owner()).environments.createEnvironment({ title: 'Staging' })).clientId;
    keyB = (
      await client(owner()).keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.SECRET,
        name: 'b',
        environmentId: envB,
      })
    ).key;
    smsType = uniqueName('code');
    await client(key).types.createNotificationType({
      notificationId: smsType,
      title: 'Code',
      channels: ['SMS'],
    });
    await client(key).templates.createTemplate(smsType, 'SMS', {
      templateId: 'plain',
      text: 'Code {{code}}',
    });
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  describe('GET /logs/{trackingId}/events', () => {
    let emailed = '';
    let failedSms = '';

    beforeAll(async () => {
      const type = uniqueName('receipt');
      emailed = (
        await client(key).send({
          type,
          to: { id: uniqueName('ann'), email: 'ann@example.test' },
          email: { subject: 'Receipt', html: '<p>Thanks</p>' },
          parameters: { order: 42 },
        })
      ).trackingId;
      // Twilio's magic number for an invalid To, refused by the local Twilio peer with code 21211.
      failedSms = (
        await client(key).send({
          type: uniqueName('otp'),
          to: { id: uniqueName('bo'), number: '+15005550001' },
          sms: { message: 'Your code is 1234' },
        })
      ).trackingId;
      await awaitLog(client(key), emailed, (l) => l['email_delivered_at'] !== undefined);
      await awaitLog(client(key), failedSms, (l) => l['sms_failed_code'] !== undefined);
    }, 60_000);

    it('shows a send from its request to its delivery, in order, with the request that started it', async () => {
      const events = await timeline(emailed);
      const names = events.map((e) => e.event);
      const at = (name: string) => names.indexOf(name);
      for (const name of ['request_received', 'routed', 'email_sent', 'email_delivered'])
        expect(names).toContain(name);
      expect(at('request_received')).toBe(0);
      expect(at('request_received')).toBeLessThan(at('routed'));
      expect(at('routed')).toBeLessThan(at('email_sent'));
      expect(at('email_sent')).toBeLessThan(at('email_delivered'));
      const order = events.map((e) => [e.epochMs, e.eventId] as const);
      expect(order).toEqual(
        [...order].sort(([t1, id1], [t2, id2]) => t1 - t2 || (id1 < id2 ? -1 : id1 > id2 ? 1 : 0)),
      );
      expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
      for (const event of events) expect(event.timestamp).toBe(new Date(event.epochMs).toISOString());
      const received = events[0];
      expect(JSON.parse(String(received?.fields['request']))).toMatchObject({
        to: { email: 'ann@example.test' },
        parameters: { order: 42 },
      });
      expect(events.find((e) => e.event === 'routed')?.fields).toMatchObject({ email_routing: 'SEND' });
    });

    it("shows a failed SMS with the provider's code and answer", async () => {
      const events = await timeline(failedSms);
      const failed = events.find((e) => e.event === 'sms_failed');
      expect(failed?.fields).toMatchObject({ sms_failed_code: '21211' });
      expect(JSON.stringify(failed?.fields)).toContain('is not a valid phone number');
      expect(events.map((e) => e.event).indexOf('sms_failed')).toBeGreaterThan(0);
    });

    it("is 404 with the error body for another environment's or account's caller, and for an unknown id", async () => {
      for (const [as, query] of [
        [keyB, ''],
        [rival(), '?envId=rival-env'],
        [key, ''],
      ] as const) {
        const id = as === key ? 'no-such-send' : emailed;
        expect(await statusAndCode(await get(`/logs/${id}/events${query}`, as))).toEqual({
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      // A member of another account cannot name this environment either.
      expect(await statusAndCode(await get(`/logs/${emailed}/events?envId=${envA}`, rival()))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    });

    it('lets any member read it; a public key gets 403 with the error body', async () => {
      expect(await timeline(emailed, member(), `?envId=${envA}`)).toEqual(await timeline(emailed));
      const publicKey = await client(owner()).keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.PUBLIC,
        name: 'browser',
        environmentId: envA,
      });
      expect(await statusAndCode(await get(`/logs/${emailed}/events`, publicKey.key))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
    });

    it('leaves the other /logs routes as they were, and refuses an over-long tracking id (400)', async () => {
      for (const path of [
        '/logs/tail',
        '/logs/retention',
        `/logs/${emailed}`,
        `/logs/${emailed},${failedSms}`,
      ]) {
        const response = await get(path, key);
        expect(response.status).toBe(200);
      }
      expect(((await (await get(`/logs/${emailed}`, key)).json()) as { logs: unknown[] }).logs).toHaveLength(
        1,
      );
      expect(await statusAndCode(await get(`/logs/query/events`, key))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(await statusAndCode(await get(`/logs/${'x'.repeat(129)}/events`, key))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    });
  });

  describe('POST /notifications/{id}/{channel}/templates/preview', () => {
    it('shows how an SMS changes encoding and segments with a unicode character, saving nothing', async () => {
      const before = await client(key).templates.getTemplate(smsType, 'SMS', 'plain');
      const plain = await preview({ content: { text: 'Code {{code}}' } });
      expect(plain).toEqual({
        rendered: {
          text: 'Code [code]',
          encoding: 'GSM-7',
          segments: 1,
          characters: 11,
          // The brackets are in GSM-7's extension table: two septets each.
          units: 13,
          mediaUrls: [],
        },
        parameters: { code: '[code]' },
        problems: [],
      });
      const text = `${'Your login code is {{code}}. '.repeat(2)}🔐`;
      const unicode = await preview({ content: { text }, parameters: { code: '123456' } });
      expect(unicode.rendered).toMatchObject({ encoding: 'UCS-2', segments: 1 });
      const longer = await preview({
        content: { text: `${text} Never share it with anyone.` },
        parameters: { code: '1' },
      });
      expect(longer.rendered).toMatchObject({ encoding: 'UCS-2', segments: 2 });
      expect(await client(key).templates.getTemplate(smsType, 'SMS', 'plain')).toEqual(before);
      expect(await client(key).templates.listTemplates(smsType, 'SMS')).toHaveLength(1);
    });

    it('answers a template that does not render with problems naming the field, not a 400', async () => {
      const answer = await preview({ content: { text: 'Code {{code' } });
      expect(answer.problems).toEqual([
        { field: 'text', message: expect.stringMatching(/^syntax error on line 1/) },
      ]);
      expect(answer.rendered).toMatchObject({ text: '', segments: 0 });
      const email = await post(previewPath(smsType, 'EMAIL'), key, {
        content: { subject: 'Hi {{name}}', html: '<p>{{#if vip}}VIP</p>{{> nowhere}}' },
      });
      expect(email.status).toBe(200);
      expect(((await email.json()) as Preview).problems).toEqual([
        { field: 'html', message: expect.stringMatching(/^syntax error/) },
      ]);
    });

    it('refuses a malformed body (400) and an unknown channel (400), with the error body', async () => {
      for (const body of [
        {},
        { content: 'text' },
        { content: { text: 'x'.repeat(40_001) } },
        { content: {}, parameters: [] },
      ])
        expect(await statusAndCode(await post(previewPath(smsType, 'SMS'), key, body))).toEqual({
          status: 400,
          code: 'VALIDATION_ERROR',
        });
      expect(await statusAndCode(await post(previewPath(smsType, 'FAX'), key, { content: {} }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    });

    it("is 404 for another environment's or account's notification type", async () => {
      for (const [as, query] of [
        [keyB, ''],
        [rival(), '?envId=rival-env'],
        [rival(), `?envId=${envA}`],
      ] as const)
        expect(
          await statusAndCode(
            await post(`${previewPath(smsType, 'SMS')}${query}`, as, { content: { text: 'x' } }),
          ),
        ).toEqual({ status: 404, code: 'NOT_FOUND' });
    });

    it('lets a member preview, though saving a template needs an admin (403)', async () => {
      const answer = await preview(
        { content: { text: 'Hi {{name}}' }, parameters: { name: 'Mia' } },
        member(),
        `?envId=${envA}`,
      );
      expect(answer.rendered).toMatchObject({ text: 'Hi Mia' });
      expect(
        await statusAndCode(
          await post(`/notifications/${smsType}/SMS/templates?envId=${envA}`, member(), {
            templateId: 'by-member',
            text: 'x',
          }),
        ),
      ).toEqual({ status: 403, code: 'FORBIDDEN' });
    });
  });
});
