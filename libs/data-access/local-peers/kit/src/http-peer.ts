import { closeServer, listenOn } from '@notify/platform';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';

/** A peer serving one HTTP server on loopback: its lifecycle and address. */
export abstract class HttpPeer {
  private server: Server | undefined;
  private port = 0;

  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    this.server = this.createServer((request, response) => void this.serve(request, response));
    this.port = await listenOn(this.server, port, host);
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await closeServer(server);
  }

  /** Where the peer listens, `http://127.0.0.1:<port>` (https for a TLS peer). */
  protected get origin(): string {
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }

  /** The scheme of `origin`; a TLS peer overrides it with its server. */
  protected get scheme(): 'http' | 'https' {
    return 'http';
  }

  protected createServer(listener: RequestListener): Server {
    return createServer(listener);
  }

  protected abstract serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
}
