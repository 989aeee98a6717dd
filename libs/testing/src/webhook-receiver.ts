import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a webhook receiver got: its headers and raw body, and what it answered. */
export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly status: number;
  readonly at: number;
}

/**
 * A local webhook receiver for tests: records every request and answers what `answer` says (200
 * by default), so a test can make it fail a few times before it accepts.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (body: string, headers: IncomingHttpHeaders) => number = () => 200;
  /** The body of every answer. */
  reply = '';
  /** How long the receiver takes to answer (a slow receiver). */
  delayMs = 0;
  private server?: Server;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = this.answer(body, request.headers);
        this.received.push({ headers: request.headers, body, status, at: Date.now() });
        setTimeout(() => response.writeHead(status).end(this.reply), this.delayMs);
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }
}
