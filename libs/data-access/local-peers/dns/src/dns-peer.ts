import * as dnsPacket from 'dns-packet';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { type AddressInfo, createServer, type Server, type Socket as TcpSocket } from 'node:net';
import { type DnsRecord, DnsZone, zoneName } from './dns-zone';

/** RFC 1035 4.2.1: a UDP answer without EDNS fits 512 bytes, else it is truncated and asked over TCP. */
const CLASSIC_UDP_BYTES = 512;
const NXDOMAIN = 3;
const FORMERR = 1;
const SERVFAIL = 2;
const TTL = 60;
/** TXT character-strings hold at most 255 bytes each (RFC 1035 3.3.14). */
const TXT_CHUNK = 255;
/** The largest TCP message a client may send (a query is far smaller). */
const TCP_MAX_QUERY_BYTES = 4_096;
/** Queries one TCP connection may ask before it is closed (a resolver asks one or a few). */
const TCP_MAX_QUERIES_PER_CONNECTION = 100;
/** Unanswered bytes held for one connection while it does not read its answers. */
const TCP_MAX_BUFFERED_BYTES = 65_536;
/** TCP connections served at once; more are refused until one closes. */
const TCP_MAX_CONNECTIONS = 64;

const chunks = (text: string): Buffer[] => {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += TXT_CHUNK) out.push(bytes.subarray(at, at + TXT_CHUNK));
  return out.length === 0 ? [Buffer.alloc(0)] : out;
};

function answerOf(name: string, record: DnsRecord): dnsPacket.Answer {
  switch (record.type) {
    case 'TXT':
      return { type: 'TXT', name, ttl: TTL, class: 'IN', data: chunks(record.value) };
    case 'CNAME':
      return { type: 'CNAME', name, ttl: TTL, class: 'IN', data: zoneName(record.value) };
    case 'MX': {
      const [preference, exchange] = record.value.trim().split(/\s+/);
      return {
        type: 'MX',
        name,
        ttl: TTL,
        class: 'IN',
        data: { preference: Number(preference), exchange: zoneName(exchange ?? '') },
      };
    }
  }
}

/**
 * A small authoritative DNS server on loopback over the records of a zone, over UDP and TCP: the
 * resolver of a newcomer's all-in-one, so a sending domain verifies with no registrar. It answers
 * TXT, CNAME and MX for the names loaded into its zone (a CNAME for any type asked of a name that
 * has one, as an authoritative server does), no data for other types of those names, and NXDOMAIN
 * for every other name. It never recurses.
 */
/** How many free TCP ports to try before giving up on finding one also free for UDP. */
const FREE_PORT_ATTEMPTS = 20;

export class DnsPeer {
  private udp: Socket | undefined;
  private tcp: Server | undefined;
  private boundPort = 0;

  constructor(readonly zone: DnsZone = new DnsZone()) {}

  /**
   * Listens on one port for both UDP and TCP (a free one when 0); answers the port. A free port
   * is one free for both: TCP's is taken first (the kernel knows which TCP ports are in use), and
   * when that number is taken for UDP, another is tried.
   */
  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.listen(port, host);
      } catch (error) {
        const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (port !== 0 || !inUse || attempt >= FREE_PORT_ATTEMPTS) throw error;
      }
    }
  }

  private async listen(port: number, host: string): Promise<number> {
    const tcp = createServer((socket) => this.onStream(socket));
    tcp.maxConnections = TCP_MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, host, () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    const bound = (tcp.address() as AddressInfo).port;
    const udp = createSocket('udp4');
    udp.on('message', (message, peer) => this.onDatagram(udp, message, peer));
    try {
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(bound, host, () => {
          udp.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      throw error;
    }
    // A stray datagram error must not stop the peer.
    udp.on('error', () => undefined);
    this.udp = udp;
    this.tcp = tcp;
    this.boundPort = bound;
    return bound;
  }

  get port(): number {
    return this.boundPort;
  }

  /** The server as DNS_SERVERS names it. */
  get server(): string {
    return `127.0.0.1:${this.boundPort}`;
  }

  async stop(): Promise<void> {
    const { udp, tcp } = this;
    this.udp = undefined;
    this.tcp = undefined;
    if (udp !== undefined) await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (tcp !== undefined) await new Promise<void>((resolve) => tcp.close(() => resolve()));
  }

  /**
   * The answer to a query, encoded; undefined for what is not a query at all. It never throws: a
   * record the wire format cannot carry answers SERVFAIL, so one bad record cannot stop the peer
   * (and the service it runs in).
   */
  answer(query: Buffer, overUdp: boolean): Buffer | undefined {
    let request: dnsPacket.DecodedPacket;
    try {
      request = dnsPacket.decode(query);
    } catch {
      return undefined;
    }
    if (request.type !== 'query') return undefined;
    const base = { type: 'response' as const, id: request.id ?? 0, questions: request.questions ?? [] };
    try {
      return this.respond(request, base, overUdp);
    } catch {
      try {
        return dnsPacket.encode({ ...base, flags: SERVFAIL });
      } catch {
        return undefined;
      }
    }
  }

  private respond(
    request: dnsPacket.DecodedPacket,
    base: { type: 'response'; id: number; questions: dnsPacket.Question[] },
    overUdp: boolean,
  ): Buffer {
    const question = request.questions?.[0];
    if (question === undefined || (request.questions?.length ?? 0) !== 1)
      return dnsPacket.encode({ ...base, flags: FORMERR });
    const name = zoneName(question.name);
    const records = this.zone.records(name);
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | ((request.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    if (records === undefined) return dnsPacket.encode({ ...base, flags: flags | NXDOMAIN });
    const cname = records.filter((r) => r.type === 'CNAME');
    const matching = cname.length > 0 ? cname : records.filter((r) => r.type === question.type);
    const response = dnsPacket.encode({ ...base, flags, answers: matching.map((r) => answerOf(name, r)) });
    if (!overUdp || response.length <= udpLimit(request)) return response;
    return dnsPacket.encode({ ...base, flags: flags | dnsPacket.TRUNCATED_RESPONSE });
  }

  private onDatagram(udp: Socket, message: Buffer, peer: RemoteInfo): void {
    const response = this.answer(message, true);
    if (response !== undefined) udp.send(response, peer.port, peer.address);
  }

  /**
   * TCP: each message is preceded by its length in two bytes (RFC 1035 4.2.2). A client that does
   * not read its answers stops being read (backpressure), and one connection answers at most
   * TCP_MAX_QUERIES_PER_CONNECTION queries, so no client grows the peer's memory.
   */
  private onStream(socket: TcpSocket): void {
    let buffered = Buffer.alloc(0);
    let answered = 0;
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const drain = (): void => {
      while (buffered.length >= 2 && !socket.destroyed) {
        const length = buffered.readUInt16BE(0);
        if (length > TCP_MAX_QUERY_BYTES || answered >= TCP_MAX_QUERIES_PER_CONNECTION) {
          socket.destroy();
          return;
        }
        if (buffered.length < 2 + length) return;
        const response = this.answer(buffered.subarray(2, 2 + length), false);
        buffered = buffered.subarray(2 + length);
        answered += 1;
        if (response === undefined) {
          socket.destroy();
          return;
        }
        const framed = Buffer.alloc(2 + response.length);
        framed.writeUInt16BE(response.length, 0);
        response.copy(framed, 2);
        if (!socket.write(framed)) {
          socket.pause();
          return;
        }
      }
    };
    socket.on('drain', () => {
      socket.resume();
      drain();
    });
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      if (buffered.length > TCP_MAX_BUFFERED_BYTES) {
        socket.destroy();
        return;
      }
      if (!socket.isPaused()) drain();
    });
  }
}

/** The UDP payload a query's client takes: its EDNS0 size (RFC 6891), else 512 bytes. */
function udpLimit(request: dnsPacket.DecodedPacket): number {
  const opt = request.additionals?.find((a) => a.type === 'OPT');
  return opt !== undefined && 'udpPayloadSize' in opt
    ? Math.max(CLASSIC_UDP_BYTES, opt.udpPayloadSize)
    : CLASSIC_UDP_BYTES;
}
