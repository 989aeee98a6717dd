import {
  aMemberToken,
  eventually,
  type RunningService,
  startService,
  tempDir,
  TEST_JWT_SECRET,
} from '@notify/testing';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { Resolver } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pingram } from 'pingram';
import { awaitLog } from './logs';

interface DnsRecordView {
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
  purpose: string;
  required: boolean;
}
interface DomainJson {
  sender: string;
  status: string;
  selector: string;
  createdAt: string;
  lastSync: string;
  mailFromDomainStatus?: string;
  dnsRecords: DnsRecordView[];
}
interface OutboxMail {
  trackingId?: string;
  from?: string;
  headers: Record<string, string>;
  returnPath: string;
  rawBase64?: string;
}

/**
 * Sending domains through the pingram DomainsApi against the all-in-one service as `npm start`
 * runs it: records loaded into its local DNS peer verify a domain, whose mail is then signed with
 * a DKIM signature that mailauth verifies against the key our DNS peer publishes.
 */
describe('sending domains (all-in-one, local DNS peer)', () => {
  let data: { path: string; remove: () => Promise<void> };
  let service: RunningService;
  let base: string;
  let key: string;
  let otherKey: string;
  let envId: string;
  /** Node's resolver pointed at the service's local DNS peer (its address is in the start banner). */
  let peerResolver: Resolver;

  const pingram = (apiKey: string) => new Pingram({ apiKey, baseUrl: base });
  const call = (path: string, as: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${as}` },
    });
  const errorOf = async (response: Response) => {
    const body = (await response.json()) as { trackingId: string; error: { code: string } };
    expect(body.trackingId).toEqual(expect.any(String));
    return { status: response.status, code: body.error.code };
  };
  const addDomain = async (sender: string, as = key): Promise<DomainJson[]> => {
    const response = await pingram(as).domains.addDomainRaw({ postSendersRequestBody: { sender } });
    return (await response.raw.json()) as DomainJson[];
  };
  /** Loads the records a domain lists into the local DNS peer, one name at a time. */
  const publish = async (records: readonly DnsRecordView[], as = key) => {
    const names = new Map<string, { type: string; value: string }[]>();
    for (const r of records)
      names.set(r.name, [...(names.get(r.name) ?? []), { type: r.type, value: r.value }]);
    for (const [name, loaded] of names) {
      const response = await call(`/dev/dns/${name}`, as, {
        method: 'PUT',
        body: JSON.stringify({ records: loaded }),
      });
      expect(response.status).toBe(200);
    }
  };
  const send = (fromAddress: string) =>
    pingram(key).send({
      type: 'receipt',
      to: { id: 'ann', email: 'ann@example.com' },
      email: { subject: 'Your receipt', html: '<p>Thank you for your order.</p>' },
      options: { email: { fromAddress } },
    });

  beforeAll(async () => {
    data = await tempDir('notify-domains-');
    service = await startService('all-in-one', {
      DATA_DIR: data.path,
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      INBOUND_MAIL_DOMAIN: 'inbound.notify.test',
    });
    base = service.baseUrl;
    key = (await readFile(join(data.path, 'api-key.txt'), 'utf8')).trim();
    envId = (await pingram(key).environments.listEnvironments())[0]?.clientId ?? '';
    const created = await call('/environments', key, {
      method: 'POST',
      body: JSON.stringify({ title: 'Other' }),
    });
    otherKey = ((await created.json()) as { apiKey: string }).apiKey;
    const server = await eventually(() => {
      const found = /DNS {7}(\S+)/.exec(service.output())?.[1];
      if (found === undefined) throw new Error('no DNS line in the banner yet');
      return Promise.resolve(found);
    }, 10_000);
    peerResolver = new Resolver({ timeout: 1_000, tries: 2 });
    peerResolver.setServers([server]);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await data?.remove();
  }, 60_000);

  it('adds a domain named by an address on it: PENDING, with the records to publish and never its private key', async () => {
    const domains = await addDomain('billing@Acme.test');
    expect(domains).toEqual([
      {
        sender: 'acme.test',
        status: 'PENDING',
        selector: expect.stringMatching(/^notify[0-9a-f]{10}$/),
        createdAt: expect.any(String),
        lastSync: expect.any(String),
        mailFromDomainStatus: 'PENDING',
        statusReason: 'the DKIM record is not published yet',
        dnsRecords: [
          expect.objectContaining({ type: 'TXT', purpose: 'DKIM', required: true }),
          {
            type: 'CNAME',
            name: 'notify-bounces.acme.test',
            value: 'inbound.notify.test',
            purpose: 'RETURN_PATH',
            required: true,
          },
          expect.objectContaining({ type: 'TXT', name: 'acme.test', purpose: 'SPF', required: false }),
          expect.objectContaining({
            type: 'TXT',
            name: '_dmarc.acme.test',
            purpose: 'DMARC',
            required: false,
          }),
        ],
      },
    ]);
    const [domain] = domains;
    expect(domain?.dnsRecords[0]).toMatchObject({
      name: `${domain?.selector}._domainkey.acme.test`,
      value: expect.stringMatching(/^v=DKIM1; k=rsa; p=MIIBIjANBg[A-Za-z0-9+/=]+$/),
    });
    expect(JSON.stringify(domains)).not.toMatch(/PRIVATE KEY|privateDKIMKey/);
    // Adding it again changes nothing; the pingram client reads the list as its model.
    const listed = await pingram(key).domains.listDomains();
    expect(listed).toEqual([
      expect.objectContaining({ sender: 'acme.test', status: 'PENDING', selector: domain?.selector }),
    ]);
    expect(listed[0]?.privateDKIMKey).toBeUndefined();
    expect((await addDomain('acme.test')).map((d) => d.selector)).toEqual([domain?.selector]);
  });

  it('refuses a sender that is no public domain, naming the field', async () => {
    for (const sender of ['localhost', '127.0.0.1', 'ann@[10.0.0.1]', 'printer.local', 'x'.repeat(400)]) {
      const response = await call('/domains', key, { method: 'POST', body: JSON.stringify({ sender }) });
      expect(await errorOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await errorOf(await call('/domains', key, { method: 'POST', body: '{}' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });

  it('fails a send from a domain not verified yet as UNVERIFIED_SENDER, before any mail goes out', async () => {
    await addDomain('pending.test');
    const { trackingId } = await send('news@pending.test');
    const log = await awaitLog(pingram(key), trackingId, (l) => l.email_failed_at !== undefined);
    expect(log).toMatchObject({ email_failed_code: 'UNVERIFIED_SENDER' });
  });

  it('verifies once the records are in the local DNS peer, and signs its mail with a key that verifies', async () => {
    const [domain] = (await addDomain('acme.test')).filter((d) => d.sender === 'acme.test');
    if (domain === undefined) throw new Error('acme.test was not added');
    await publish(domain.dnsRecords);
    const shown = (await (
      await call(`/dev/dns/${domain.selector}._domainkey.ACME.test`, key)
    ).json()) as unknown;
    expect(shown).toEqual({
      name: `${domain.selector}._domainkey.acme.test`,
      records: [{ type: 'TXT', value: domain.dnsRecords[0]?.value }],
    });

    // A read looks a pending domain up again at most every 10 seconds.
    const verified = await eventually(async () => {
      const found = (await pingram(key).domains.listDomains()).find((d) => d.sender === 'acme.test');
      if (found?.status !== 'SUCCESS') throw new Error(`acme.test is ${found?.status}`);
      return found;
    }, 30_000);
    expect(verified).toMatchObject({ mailFromDomainStatus: 'SUCCESS', selector: domain.selector });

    const { trackingId } = await send('billing@acme.test');
    const mail = await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email', key)).json()) as {
        messages: OutboxMail[];
      };
      const found = messages.find((m) => m.trackingId === trackingId);
      if (found === undefined) throw new Error('not in the outbox yet');
      return found;
    }, 20_000);
    expect(mail.from).toBe('billing@acme.test');
    expect(mail.returnPath).toBe('bounces@notify-bounces.acme.test');
    expect(mail.headers['dkim-signature']).toMatch(/a=rsa-sha256/);
    expect(mail.headers['dkim-signature']).toMatch(/c=relaxed\/relaxed/);

    // mailauth, not our code, checks the signature against the key our DNS peer publishes.
    const result = await dkimVerify(Buffer.from(mail.rawBase64 ?? '', 'base64'), {
      resolver: (name, type) => peerResolver.resolve(name, type) as Promise<string[][] | string[]>,
    });
    expect(result.results).toEqual([
      expect.objectContaining({
        signingDomain: 'acme.test',
        selector: domain.selector,
        status: expect.objectContaining({ result: 'pass' }),
      }),
    ]);
    const log = await awaitLog(pingram(key), trackingId, (l) => l.email_delivered_at !== undefined);
    expect(log.email_failed_code).toBeUndefined();
  });

  it('signs a send at once after its domain verifies, though a send just before found it pending', async () => {
    const [domain] = (await addDomain('fresh.test')).filter((d) => d.sender === 'fresh.test');
    if (domain === undefined) throw new Error('fresh.test was not added');
    const before = await send('news@fresh.test');
    const failed = await awaitLog(pingram(key), before.trackingId, (l) => l.email_failed_at !== undefined);
    expect(failed).toMatchObject({ email_failed_code: 'UNVERIFIED_SENDER' });
    await publish(domain.dnsRecords);
    await eventually(async () => {
      const found = (await pingram(key).domains.listDomains()).find((d) => d.sender === 'fresh.test');
      if (found?.status !== 'SUCCESS') throw new Error(`fresh.test is ${found?.status}`);
    }, 30_000);
    const { trackingId } = await send('news@fresh.test');
    const log = await awaitLog(
      pingram(key),
      trackingId,
      (l) => l.email_delivered_at !== undefined || l.email_failed_at !== undefined,
    );
    expect(log.email_failed_code).toBeUndefined();
    const { messages } = (await (await call('/dev/outbox/email', key)).json()) as { messages: OutboxMail[] };
    expect(messages.find((m) => m.trackingId === trackingId)?.headers['dkim-signature']).toMatch(
      /d=fresh\.test/,
    );
    expect(await pingram(key).domains.deleteDomain('fresh.test')).toEqual({ success: true });
  });

  it('refuses a record the DNS wire format cannot carry, naming the field, and keeps answering', async () => {
    for (const value of ['70000 mx.acme.test', '-1 mx']) {
      const response = await call('/dev/dns/acme.test', key, {
        method: 'PUT',
        body: JSON.stringify({ records: [{ type: 'MX', value }] }),
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/records\.0\.value/);
    }
    const cname = await call('/dev/dns/acme.test', key, {
      method: 'PUT',
      body: JSON.stringify({ records: [{ type: 'CNAME', value: 'not a host' }] }),
    });
    expect(cname.status).toBe(400);
    expect((await peerResolver.resolveTxt('acme.test')).length).toBeGreaterThan(0);
  });

  it('keeps environments apart: another environment sees, deletes and loads DNS names for none of them (404)', async () => {
    expect(await pingram(otherKey).domains.listDomains()).toEqual([]);
    expect(await errorOf(await call('/domains/acme.test', otherKey, { method: 'DELETE' }))).toEqual({
      status: 404,
      code: 'DOMAIN_NOT_FOUND',
    });
    const planted = await call('/dev/dns/x._domainkey.acme.test', otherKey, {
      method: 'PUT',
      body: JSON.stringify({ records: [{ type: 'TXT', value: 'v=DKIM1; p=evil' }] }),
    });
    expect(await errorOf(planted)).toEqual({ status: 404, code: 'DOMAIN_NOT_FOUND' });
    // It may add the same domain (its own key and selector), or a name under it, but the names
    // under acme.test stay the environment's that added it first.
    const [theirs] = await addDomain('acme.test', otherKey);
    expect(theirs?.status).toBe('PENDING');
    await addDomain('notify-bounces.acme.test', otherKey);
    for (const name of ['acme.test', 'notify-bounces.acme.test']) {
      const taken = await call(`/dev/dns/${name}`, otherKey, {
        method: 'PUT',
        body: JSON.stringify({ records: [{ type: 'TXT', value: 'v=spf1 -all' }] }),
      });
      expect(await errorOf(taken)).toEqual({ status: 404, code: 'DOMAIN_NOT_FOUND' });
      expect(await errorOf(await call(`/dev/dns/${name}`, otherKey))).toEqual({
        status: 404,
        code: 'DOMAIN_NOT_FOUND',
      });
    }
  });

  it('lets a member read the domains but not change them (403 with the error body)', async () => {
    const owner = aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
    await pingram(owner).members.inviteMember('unused', { email: 'mia@example.com', role: 'member' });
    const token = await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email', key)).json()) as { messages: unknown[] };
      const found = messages
        .map((m) => JSON.stringify(m))
        .filter((m) => m.includes('mia@example.com'))
        .map((m) => /accept_invite\?token=([A-Za-z0-9_.-]+)/.exec(m)?.[1])
        .find((t) => t !== undefined);
      if (found === undefined) throw new Error('no invitation yet');
      return found;
    }, 20_000);
    await pingram(owner).profile.acceptInvite({ token });
    const member = aMemberToken({ email: 'mia@example.com', sub: 'sub-mia' });
    const read = await call(`/domains?envId=${envId}`, member);
    expect(read.status).toBe(200);
    expect(((await read.json()) as DomainJson[]).map((d) => d.sender)).toEqual(['acme.test', 'pending.test']);
    const added = await call(`/domains?envId=${envId}`, member, {
      method: 'POST',
      body: JSON.stringify({ sender: 'mine.test' }),
    });
    expect(await errorOf(added)).toEqual({ status: 403, code: 'FORBIDDEN' });
    const removed = await call(`/domains/acme.test?envId=${envId}`, member, { method: 'DELETE' });
    expect(await errorOf(removed)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('deletes a domain named by an address on it, clearing the names it loaded; a second delete is 404', async () => {
    expect((await peerResolver.resolveTxt('acme.test')).length).toBeGreaterThan(0);
    expect(await pingram(key).domains.deleteDomain('billing@acme.test')).toEqual({ success: true });
    await eventually(
      () => expect(peerResolver.resolveTxt('acme.test')).rejects.toMatchObject({ code: 'ENOTFOUND' }),
      5_000,
    );
    // The other environment, which added acme.test later, now holds its names.
    const loaded = await call('/dev/dns/acme.test', otherKey, {
      method: 'PUT',
      body: JSON.stringify({ records: [{ type: 'TXT', value: 'v=spf1 -all' }] }),
    });
    expect(loaded.status).toBe(200);
    expect((await pingram(key).domains.listDomains()).map((d) => d.sender)).toEqual(['pending.test']);
    expect(await errorOf(await call('/domains/acme.test', key, { method: 'DELETE' }))).toEqual({
      status: 404,
      code: 'DOMAIN_NOT_FOUND',
    });
  });
});
