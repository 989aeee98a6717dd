import { Resolver } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import { createConnection, createServer } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { DnsPeer } from './dns-peer';
import { dnsRecordProblem, ZONE_MAX_NAMES } from './dns-zone';

describe('DnsPeer', () => {
  let peer: DnsPeer;
  let resolver: Resolver;

  beforeEach(async () => {
    peer = new DnsPeer();
    await peer.start();
    resolver = new Resolver({ timeout: 1_000, tries: 1 });
    resolver.setServers([peer.server]);
  });

  afterEach(() => peer.stop());

  it('answers the TXT, CNAME and MX records loaded for a name, whatever its case', async () => {
    const key = `v=DKIM1; k=rsa; p=${'A'.repeat(392)}`;
    peer.zone.load('Sel._domainkey.Acme.test.', [
      { type: 'TXT', value: key },
      { type: 'TXT', value: 'second' },
    ]);
    peer.zone.load('notify-bounces.acme.test', [{ type: 'CNAME', value: 'inbound.notify.test.' }]);
    peer.zone.load('acme.test', [{ type: 'MX', value: '5 mx.acme.test' }]);

    const txt = await resolver.resolveTxt('sel._domainkey.acme.test');
    // A value beyond 255 bytes travels as several character-strings, joined back by the reader.
    expect(txt.map((strings) => strings.join('')).sort()).toEqual([key, 'second'].sort());
    expect(txt.find((strings) => strings.length > 1)?.[0]).toHaveLength(255);
    expect(await resolver.resolveCname('notify-bounces.acme.test')).toEqual(['inbound.notify.test']);
    expect(await resolver.resolveMx('acme.test')).toEqual([
      expect.objectContaining({ priority: 5, exchange: 'mx.acme.test' }),
    ]);
  });

  it('answers NXDOMAIN for a name it does not hold, and no data for another type of one it does', async () => {
    peer.zone.load('acme.test', [{ type: 'TXT', value: 'v=spf1 -all' }]);
    await expect(resolver.resolveTxt('other.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveMx('acme.test')).rejects.toMatchObject({ code: 'ENODATA' });
  });

  it('forgets a name loaded with no records', async () => {
    peer.zone.load('acme.test', [{ type: 'TXT', value: 'x' }]);
    peer.zone.load('acme.test', []);
    await expect(resolver.resolveTxt('acme.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('truncates a UDP answer beyond 512 bytes, which the resolver then takes over TCP', async () => {
    const values = Array.from({ length: 8 }, (_, i) => `${i}${'x'.repeat(200)}`);
    peer.zone.load(
      'big.acme.test',
      values.map((value) => ({ type: 'TXT' as const, value })),
    );
    const query = dnsPacket.encode({
      type: 'query',
      id: 7,
      questions: [{ type: 'TXT', name: 'big.acme.test' }],
    });
    expect(dnsPacket.decode(peer.answer(query, true) ?? Buffer.alloc(0)).flag_tc).toBe(true);
    expect((await resolver.resolveTxt('big.acme.test')).map((s) => s.join('')).sort()).toEqual(values);
  });

  it('answers over TCP, framed by length', async () => {
    peer.zone.load('acme.test', [{ type: 'TXT', value: 'over tcp' }]);
    const query = dnsPacket.encode({ type: 'query', id: 9, questions: [{ type: 'TXT', name: 'acme.test' }] });
    const framed = Buffer.concat([Buffer.from([0, query.length]), query]);
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const socket = createConnection(peer.port, '127.0.0.1', () => socket.write(framed));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data);
      });
      socket.once('error', reject);
    });
    const decoded = dnsPacket.decode(reply.subarray(2));
    expect(decoded.id).toBe(9);
    expect(decoded.answers).toEqual([
      expect.objectContaining({ type: 'TXT', data: [Buffer.from('over tcp')] }),
    ]);
  });

  it('ignores what is not a DNS query', () => {
    expect(peer.answer(Buffer.from('hello'), true)).toBeUndefined();
  });

  it('answers SERVFAIL, and keeps serving, when a record cannot be put on the wire', async () => {
    peer.zone.load('acme.test', [{ type: 'MX', value: '70000 mx.acme.test' }]);
    await expect(resolver.resolveMx('acme.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    peer.zone.load('ok.acme.test', [{ type: 'TXT', value: 'still here' }]);
    expect(await resolver.resolveTxt('ok.acme.test')).toEqual([['still here']]);
  });

  it('refuses records the wire format cannot carry, naming why', () => {
    expect(dnsRecordProblem({ type: 'MX', value: '10 mx.acme.test' })).toBeUndefined();
    expect(dnsRecordProblem({ type: 'MX', value: '0 mx.acme.test' })).toBeUndefined();
    for (const value of ['70000 mx.acme.test', '-1 mx', '1.5 mx', 'mx.acme.test', '10 mx bad', '10 -mx-'])
      expect(dnsRecordProblem({ type: 'MX', value })).toMatch(/expected/);
    expect(dnsRecordProblem({ type: 'CNAME', value: 'inbound.notify.test.' })).toBeUndefined();
    expect(dnsRecordProblem({ type: 'CNAME', value: 'not a host' })).toMatch(/host name/);
    expect(dnsRecordProblem({ type: 'TXT', value: 'v=spf1 -all' })).toBeUndefined();
    expect(dnsRecordProblem({ type: 'TXT', value: 'two\nlines' })).toMatch(/printable/);
  });

  it('closes a TCP connection after its quota of queries', async () => {
    peer.zone.load('acme.test', [{ type: 'TXT', value: 'x'.repeat(1_000) }]);
    const query = dnsPacket.encode({ type: 'query', id: 1, questions: [{ type: 'TXT', name: 'acme.test' }] });
    const framed = Buffer.concat([Buffer.from([0, query.length]), query]);
    const answer = peer.answer(query, false)?.length ?? 0;
    const received = await new Promise<number>((resolve, reject) => {
      let bytes = 0;
      const socket = createConnection(peer.port, '127.0.0.1', () =>
        socket.write(Buffer.concat(Array.from({ length: 300 }, () => framed))),
      );
      socket.on('data', (data) => (bytes += data.length));
      socket.once('close', () => resolve(bytes));
      socket.once('error', reject);
    });
    expect(received).toBe(100 * (2 + answer));
    expect(await resolver.resolveTxt('acme.test')).toHaveLength(1);
  });

  it('gives up a port whose UDP side is taken without holding its TCP side', async () => {
    const other = createSocket('udp4');
    await new Promise<void>((resolve) => other.bind(0, '127.0.0.1', resolve));
    const taken = other.address().port;
    try {
      await expect(new DnsPeer().start(taken)).rejects.toMatchObject({ code: 'EADDRINUSE' });
      // The TCP port it tried is free again.
      const tcp = createServer();
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(taken, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    } finally {
      other.close();
    }
  });

  it('holds a bounded number of names', () => {
    for (let i = 0; i < ZONE_MAX_NAMES; i++)
      expect(peer.zone.load(`n${i}.acme.test`, [{ type: 'TXT', value: 'x' }])).toBe(true);
    expect(peer.zone.load('one-more.acme.test', [{ type: 'TXT', value: 'x' }])).toBe(false);
    expect(peer.zone.load('n0.acme.test', [{ type: 'TXT', value: 'replaced' }])).toBe(true);
  });
});
