import { SMTPServer } from 'smtp-server';

const TRACKING = /^x-notify-tracking-id:\s*(\S+)/im;

/**
 * An SMTP peer for benchmarks: accepts everything and records when each tracking id arrived,
 * reading only the message headers (full parsing would make the benchmark measure itself).
 */
export class SmtpSink {
  readonly arrivals = new Map<string, number>();
  /** Messages received with a tracking id, repeats included: `deliveries - arrivals.size` are duplicates. */
  deliveries = 0;
  /** Called once per tracking id, when its first message arrives. */
  onArrival: ((trackingId: string) => void) | undefined;
  private server: SMTPServer | undefined;

  async start(): Promise<string> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, callback) => {
        let head = '';
        stream.on('data', (chunk: Buffer) => {
          if (head.length < 16_384) head += chunk.toString('latin1');
        });
        stream.on('end', () => {
          const id = TRACKING.exec(head)?.[1];
          if (id !== undefined) {
            this.deliveries++;
            if (!this.arrivals.has(id)) {
              this.arrivals.set(id, Date.now());
              this.onArrival?.(id);
            }
          }
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const address = server.server.address();
    return `smtp://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
