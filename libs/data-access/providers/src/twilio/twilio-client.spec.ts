import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTwilioClient } from './twilio-client';

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

  constructor() {
    this.server = createServer((request, response) => this.serve(request, response));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
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
});
