import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackCall {
  readonly method: string;
  readonly token: string | undefined;
  readonly params: Record<string, string>;
}

/**
 * A local stand-in for the Slack Web API, for unit suites: each method answers what its handler
 * returns (JSON, `ok` included), and every call is recorded with its token and form parameters.
 */
export class FakeSlackApi {
  readonly calls: SlackCall[] = [];
  private readonly server: Server;

  constructor(private readonly handlers: Record<string, (params: Record<string, string>) => object>) {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
        const params = Object.fromEntries(new URLSearchParams(body));
        const auth = request.headers.authorization;
        this.calls.push({ method, token: auth?.replace(/^Bearer /, ''), params });
        const answer = this.handlers[method]?.(params) ?? { ok: false, error: 'unknown_method' };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(answer));
      });
    });
  }

  /** Starts listening; answers the API URL a client is given. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
