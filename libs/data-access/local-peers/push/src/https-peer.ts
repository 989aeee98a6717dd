import { HttpPeer } from '@notify/local-peer-kit';
import type { RequestListener, Server } from 'node:http';
import { createServer } from 'node:https';
import { makePeerTls } from './peer-tls';

/** An HTTPS/1.1 peer on loopback with the process's peer certificate: its address and CA. */
export abstract class HttpsPeer extends HttpPeer {
  get url(): string {
    return this.origin;
  }

  /** The CA (PEM) that signed the peer's certificate. */
  get ca(): string {
    return makePeerTls().ca;
  }

  protected override get scheme(): 'https' {
    return 'https';
  }

  protected override createServer(listener: RequestListener): Server {
    const { key, cert } = makePeerTls();
    return createServer({ key, cert }, listener);
  }
}
