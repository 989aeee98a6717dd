import { closeServer, listenOn } from '@notify/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { makePeerTls } from './peer-tls';

/** An HTTPS/1.1 peer on loopback with the process's peer certificate: its lifecycle, address and CA. */
export abstract class HttpsPeer {
  private server: Server | undefined;
  private port = 0;

  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    const { key, cert } = makePeerTls();
    this.server = createServer({ key, cert }, (request, response) => void this.serve(request, response));
    this.port = await listenOn(this.server, port, host);
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await closeServer(server);
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /** The CA (PEM) that signed the peer's certificate. */
  get ca(): string {
    return makePeerTls().ca;
  }

  protected abstract serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
}
