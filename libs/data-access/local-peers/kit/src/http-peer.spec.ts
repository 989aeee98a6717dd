import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpPeer } from './http-peer';

/** A peer that answers every request with its method and path. */
class EchoPeer extends HttpPeer {
  get url(): string {
    return this.origin;
  }

  protected async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.end(`${request.method ?? ''} ${request.url ?? ''}`);
  }
}

describe('HttpPeer', () => {
  it('serves on loopback at its origin until stopped', async () => {
    const peer = new EchoPeer();
    const port = await peer.start();
    expect(peer.url).toBe(`http://127.0.0.1:${port}`);
    const answer = await fetch(`${peer.url}/ping`);
    expect(await answer.text()).toBe('GET /ping');
    await peer.stop();
    await expect(fetch(`${peer.url}/ping`)).rejects.toThrow();
  });

  it('may be stopped before it started', async () => {
    await expect(new EchoPeer().stop()).resolves.toBeUndefined();
  });
});
