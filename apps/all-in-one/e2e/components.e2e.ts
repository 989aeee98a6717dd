import { aMemberToken, eventually, uniqueName } from '@notify/testing';
import { type AllInOne, bootstrapKey, callAs, failedResponse, pingramIn, startAllInOne } from './all-in-one';

/**
 * Email components through the pingram client against the all-in-one service as `npm start` runs
 * it: a template renders its components in the mail its local mail peer receives (seen in the dev
 * outbox), each component lists the templates that use it, a used one cannot be deleted, a cycle is
 * refused at once, a change reaches the next mail, another environment's component is 404, and a
 * member without the admin role may read components but not write them.
 */
describe('email components (all-in-one)', () => {
  let app: AllInOne;
  let key: string;
  let envId: string;

  const client = (apiKey: string, actingIn?: string) => pingramIn(app.baseUrl, apiKey, actingIn);
  const call = (path: string, token: string, init: RequestInit = {}) =>
    callAs(app.baseUrl, path, token, init);
  /** The status and error body of a pingram call that must fail. */
  const failure = async (calling: Promise<unknown>) => {
    const response = await failedResponse(calling);
    const body = (await response.json()) as { trackingId: string; error: { code: string; message: string } };
    expect(body.trackingId).toEqual(expect.any(String));
    return { status: response.status, code: body.error.code, message: body.error.message };
  };
  /** The HTML of the mail of `trackingId` that reached the local mail peer, from the dev outbox. */
  const mailed = (trackingId: string) =>
    eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email', key)).json()) as {
        messages: { trackingId?: string }[];
      };
      const found = messages.find((m) => m.trackingId === trackingId);
      if (found === undefined) throw new Error(`no mail for ${trackingId} yet`);
      return JSON.stringify(found);
    }, 30_000);

  beforeAll(async () => {
    app = await startAllInOne('notify-components-');
    key = await bootstrapKey(app);
    const [environment] = (await (await call('/environments', key)).json()) as { clientId: string }[];
    envId = environment?.clientId ?? '';
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('renders a template’s components in the mail, lists the template in referencedBy, and keeps a used component', async () => {
    const pingram = client(key);
    await pingram.components.createComponent({
      componentId: 'brand',
      name: 'Brand',
      html: '<b>Acme {{plan}}</b>',
    });
    const footer = await pingram.components.createComponent({
      componentId: 'footer',
      name: 'Footer',
      html: '<footer>{{> brand}} v1</footer>',
      internal: '{"rows":[]}',
    });
    expect(footer).toMatchObject({ componentId: 'footer', envId, channel: 'EMAIL', referencedBy: [] });
    const type = uniqueName('welcome');
    await pingram.types.createNotificationType({
      notificationId: type,
      title: 'Welcome',
      channels: ['EMAIL'],
    });
    await pingram.templates.createTemplate(type, 'EMAIL', {
      templateId: 'with-footer',
      subject: 'Hello',
      html: '<p>Hi {{name}}</p>{{> footer}}',
    });

    const send = () =>
      pingram.send({
        type,
        to: { id: uniqueName('u'), email: 'reader@example.com' },
        parameters: { name: 'Ann', plan: 'Pro' },
      });
    const first = await mailed((await send()).trackingId);
    expect(first).toContain('<p>Hi Ann</p><footer><b>Acme Pro</b> v1</footer>');

    const reference = { notificationId: type, channel: 'EMAIL', templateId: 'with-footer' };
    expect((await pingram.components.getComponent('footer')).referencedBy).toEqual([reference]);
    const listed = await pingram.components.listComponents('EMAIL');
    expect(listed.map((c) => [c.componentId, c.referencedBy.length])).toEqual([
      ['brand', 0],
      ['footer', 1],
    ]);
    const parsed = (await pingram.components.listComponentsParsed()) as {
      componentId: string;
      html: string;
      internal: unknown;
    }[];
    expect(parsed.find((c) => c.componentId === 'footer')).toMatchObject({
      html: '<footer><b>Acme {{plan}}</b> v1</footer>',
      internal: { rows: [] },
    });

    const refused = await failure(pingram.components.deleteComponent('footer'));
    expect(refused).toMatchObject({ status: 400, code: 'COMPONENT_IN_USE' });
    expect(refused.message).toContain('"with-footer"');
    expect(await failure(pingram.components.deleteComponent('brand'))).toMatchObject({
      status: 400,
      code: 'COMPONENT_IN_USE',
    });

    // A change reaches the next mail.
    await pingram.components.patchComponent('footer', { html: '<footer>{{> brand}} v2</footer>' });
    const second = await mailed((await send()).trackingId);
    expect(second).toContain('<footer><b>Acme Pro</b> v2</footer>');

    // Once no template uses it, it can go.
    await pingram.templates.updateTemplate(type, 'EMAIL', 'with-footer', { html: '<p>plain</p>' });
    await pingram.components.deleteComponent('footer');
    expect(await failure(pingram.components.getComponent('footer'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('refuses a cycle quickly, and a template naming a component that does not exist', async () => {
    const pingram = client(key);
    await pingram.components.createComponent({ componentId: 'ping', name: 'A', html: 'a' });
    await pingram.components.createComponent({ componentId: 'pong', name: 'B', html: '{{> ping}}' });
    const started = Date.now();
    const cycle = await failure(pingram.components.patchComponent('ping', { html: '{{> pong}}' }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(cycle).toMatchObject({
      status: 400,
      code: 'COMPONENT_CYCLE',
      message: expect.stringContaining('ping → pong → ping'),
    });
    expect((await pingram.components.getComponent('ping')).html).toBe('a');

    const type = uniqueName('typo');
    await pingram.types.createNotificationType({ notificationId: type, title: 'Typo', channels: ['EMAIL'] });
    const unknown = await failure(
      pingram.templates.createTemplate(type, 'EMAIL', {
        templateId: 't',
        subject: 's',
        html: '{{> missing}}',
      }),
    );
    expect(unknown).toMatchObject({
      status: 400,
      code: 'UNKNOWN_COMPONENT',
      message: expect.stringContaining('"missing"'),
    });
  });

  it("answers 404 for another environment's component, which lists only its own", async () => {
    const created = await call('/environments', key, {
      method: 'POST',
      body: JSON.stringify({ title: 'Other' }),
    });
    const other = (await created.json()) as { apiKey: string };
    await client(other.apiKey).components.createComponent({ componentId: 'elsewhere', name: 'E', html: 'x' });
    const pingram = client(key);
    expect(await failure(pingram.components.getComponent('elsewhere'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(pingram.components.patchComponent('elsewhere', { name: 'mine' }))).toMatchObject({
      status: 404,
    });
    expect(await failure(pingram.components.deleteComponent('elsewhere'))).toMatchObject({ status: 404 });
    expect((await pingram.components.listComponents('EMAIL')).map((c) => c.componentId)).not.toContain(
      'elsewhere',
    );
    expect((await client(other.apiKey).components.getComponent('elsewhere')).name).toBe('E');
  });

  it('lets a member without the admin role read components but not write them (403)', async () => {
    const owner = aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
    const email = 'viewer@example.com';
    await client(owner).members.inviteMember('unused', { email, role: 'member' });
    const token = await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email', key)).json()) as { messages: unknown[] };
      const link = messages
        .map((m) => JSON.stringify(m))
        .filter((m) => m.includes(email))
        .flatMap((m) => [...m.matchAll(/accept_invite\?token=([A-Za-z0-9_.-]+)/g)].map((x) => x[1] ?? ''))[0];
      if (link === undefined) throw new Error('no invitation yet');
      return link;
    }, 20_000);
    await client(owner).profile.acceptInvite({ token });
    const member = client(aMemberToken({ email, sub: 'sub-viewer' }), envId);
    expect(Array.isArray(await member.components.listComponents('EMAIL'))).toBe(true);
    const forbidden = await failure(member.components.createComponent({ componentId: 'nope', name: 'N' }));
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await failure(client(key).components.getComponent('nope'))).toMatchObject({ status: 404 });
  });
});
