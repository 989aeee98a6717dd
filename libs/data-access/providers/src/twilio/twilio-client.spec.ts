import { makePeerTls } from '@notify/local-peer-push';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { closeTwilioClient, createTwilioClient, TwilioClientError } from './twilio-client';
import { isTransientTwilioError } from './twilio-refusal';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
  readonly socket: number;
}

/** A server standing in for Twilio's API: records each request and answers what `answer` says. */
class FakeTwilioApi {
  readonly seen: Seen[] = [];
  answer: (request: IncomingMessage) => { status: number; body: object } | 'hang' = () => ({
    status: 201,
    body: { sid: 'SM1', status: 'queued' },
  });
  private readonly server: Server;
  private readonly sockets = new Map<object, number>();

  /** Over TLS with this identity when given (a leaf for localhost), else plain HTTP. */
  constructor(private readonly tls?: { key: string; cert: string }) {
    this.server =
      tls === undefined
        ? createServer((request, response) => this.serve(request, response))
        : createHttpsServer(tls, (request, response) => this.serve(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    return this.tls === undefined ? `http://127.0.0.1:${port}` : `https://localhost:${port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (!this.sockets.has(request.socket)) this.sockets.set(request.socket, this.sockets.size + 1);
      this.seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
        socket: this.sockets.get(request.socket) ?? 0,
      });
      const answer = this.answer(request);
      if (answer === 'hang') return;
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    });
  }
}

describe('createTwilioClient', () => {
  let api: FakeTwilioApi;
  let apiUrl: string;
  const credentials = { accountSid: 'AC123', authToken: 'token-1' };

  beforeEach(async () => {
    api = new FakeTwilioApi();
    apiUrl = await api.start();
  });

  afterEach(() => api.stop());

  it('sends the SDK’s request to the API URL with Basic auth and the form as Twilio reads it', async () => {
    const client = createTwilioClient({ ...credentials, apiUrl: `${apiUrl}/` });
    const message = await client.messages.create({
      to: '+15005550006',
      from: '+15005550001',
      body: 'Hello & welcome',
      mediaUrl: ['https://example.com/a.png', 'https://example.com/b.png'],
    });
    expect(message.sid).toBe('SM1');
    const [request] = api.seen;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/2010-04-01/Accounts/AC123/Messages.json',
      authorization: `Basic ${Buffer.from('AC123:token-1').toString('base64')}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    const form = new URLSearchParams(request?.body);
    expect(form.get('To')).toBe('+15005550006');
    expect(form.get('Body')).toBe('Hello & welcome');
    expect(form.getAll('MediaUrl')).toEqual(['https://example.com/a.png', 'https://example.com/b.png']);
  });

  it('puts a list’s filters in the query string', async () => {
    api.answer = () => ({
      status: 200,
      body: { messages: [], next_page_uri: null, page: 0, page_size: 50 },
    });
    const client = createTwilioClient({ ...credentials, apiUrl });
    await client.messages.list({ to: '+15005550006', limit: 20 });
    const url = new URL(api.seen[0]?.url ?? '', apiUrl);
    expect(url.pathname).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(url.searchParams.get('To')).toBe('+15005550006');
    expect(url.searchParams.get('PageSize')).toBe('20');
  });

  it('turns a refusal into the SDK’s exception with Twilio’s status and code', async () => {
    api.answer = () => ({ status: 400, body: { code: 21211, message: 'Invalid To', status: 400 } });
    const client = createTwilioClient({ ...credentials, apiUrl });
    await expect(client.messages.create({ to: '+1', from: '+15005550001', body: 'x' })).rejects.toMatchObject(
      { status: 400, code: 21211 },
    );
  });

  it('sends one request after another on the same kept-alive connection', async () => {
    const client = createTwilioClient({ ...credentials, apiUrl });
    for (let i = 0; i < 3; i++)
      await client.messages.create({ to: '+15005550006', from: '+1500555000', body: 'x' });
    expect(api.seen.map((s) => s.socket)).toEqual([1, 1, 1]);
  });

  it('gives up on an API that does not answer within the timeout, without a status', async () => {
    api.answer = () => 'hang';
    const client = createTwilioClient({ ...credentials, apiUrl });
    const slow = client.request({
      method: 'get',
      uri: 'https://api.twilio.com/2010-04-01/x.json',
      timeout: 50,
    });
    const error = await slow.catch((e: unknown) => e);
    expect(error).toEqual(new Error('Twilio did not answer within 50 ms'));
    expect(error).not.toHaveProperty('status');
  });

  it('starts a request’s timeout once it has a connection, not while it waits for one', async () => {
    api.answer = () => 'hang';
    const client = createTwilioClient({ ...credentials, apiUrl });
    const get = (timeout: number) =>
      client
        .request({ method: 'get', uri: 'https://api.twilio.com/2010-04-01/x.json', timeout })
        .catch((e: unknown) => e);
    // Every connection a client has, held for 300 ms; then one request more, which must wait.
    const holding = Array.from({ length: 64 }, () => get(300));
    const waiting = get(100);
    await Promise.all([...holding, waiting]);
    expect(await waiting).toEqual(new Error('Twilio did not answer within 100 ms'));
    expect(api.seen).toHaveLength(65);
  });

  it('fails a request it cannot make once: not a transient error', async () => {
    const client = createTwilioClient({ ...credentials, apiUrl });
    const nested = await client
      .request({ method: 'post', uri: `${apiUrl}/x.json`, data: { Field: { nested: 1 } } })
      .catch((e: unknown) => e);
    const unknownProtocol = await client
      .request({ method: 'get', uri: 'ftp://127.0.0.1/x.json' })
      .catch((e: unknown) => e);
    for (const error of [nested, unknownProtocol]) {
      expect(error).toBeInstanceOf(TwilioClientError);
      expect(isTransientTwilioError(error)).toBe(false);
    }
    expect(api.seen).toEqual([]);
    expect(isTransientTwilioError(new Error('socket hang up'))).toBe(true);
  });

  it('closes the connections it kept alive when closed', async () => {
    const client = createTwilioClient({ ...credentials, apiUrl });
    await client.messages.create({ to: '+15005550006', from: '+1500555000', body: 'x' });
    closeTwilioClient(client);
    await client.messages.create({ to: '+15005550006', from: '+1500555000', body: 'x' });
    expect(api.seen.map((s) => s.socket)).toEqual([1, 2]);
  });

  describe('over HTTPS', () => {
    const tls = makePeerTls();
    const ca = Buffer.from(tls.ca);
    let secure: FakeTwilioApi;
    let secureUrl: string;

    beforeEach(async () => {
      secure = new FakeTwilioApi(tls);
      secureUrl = await secure.start();
    });

    afterEach(() => secure.stop());

    it('checks the API’s certificate against the CA given, whatever the case of its URL', async () => {
      const client = createTwilioClient({ ...credentials, apiUrl: secureUrl.toUpperCase() }, { ca });
      expect((await client.messages.create({ to: '+15005550006', from: '+1500555000', body: 'x' })).sid).toBe(
        'SM1',
      );
      expect(secure.seen).toHaveLength(1);
    });

    it('refuses an API whose certificate no CA it trusts signed', async () => {
      const client = createTwilioClient({ ...credentials, apiUrl: secureUrl });
      const error = await client.messages
        .create({ to: '+15005550006', from: '+1500555000', body: 'x' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
      expect(secure.seen).toEqual([]);
    });

    it('reaches an HTTPS origin from a client whose API is plain HTTP', async () => {
      const client = createTwilioClient({ ...credentials, apiUrl }, { ca });
      const response = await client.request({ method: 'get', uri: `${secureUrl}/x.json` });
      expect(response.statusCode).toBe(201);
      expect(secure.seen).toHaveLength(1);
    });

    it('tunnels through the proxy it is given', async () => {
      const tunnelled: string[] = [];
      const tunnels: Socket[] = [];
      const proxy = createServer();
      proxy.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
        tunnelled.push(request.url ?? '');
        const port = Number(new URL(`http://${request.url ?? ''}`).port);
        const upstream = connect(port, '127.0.0.1', () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(socket).pipe(upstream);
        });
        tunnels.push(socket, upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const httpsProxy = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      try {
        const client = createTwilioClient({ ...credentials, apiUrl: secureUrl }, { ca, httpsProxy });
        await client.messages.create({ to: '+15005550006', from: '+1500555000', body: 'x' });
        expect(tunnelled).toEqual([new URL(secureUrl).host]);
        expect(secure.seen).toHaveLength(1);
      } finally {
        // A tunnel is no longer the server's HTTP connection: closeAllConnections leaves it open.
        for (const socket of tunnels) socket.destroy();
        await new Promise((resolve) => proxy.close(resolve));
      }
    });
  });
});
