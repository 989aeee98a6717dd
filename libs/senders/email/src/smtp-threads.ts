import { EgressError, type Logger, ThreadPool } from '@notify/platform';
import { withTimeout } from '@notify/util';
import type Mail from 'nodemailer/lib/mailer';
import { extname, join } from 'node:path';
import type { Relay, SentMail, SmtpPoolSettings } from './smtp-pools';

/** One email for a sending thread: the relay, its pool key, and the message. */
export interface SmtpThreadCall {
  readonly relay: Relay;
  readonly key: string;
  readonly mail: Mail.Options;
}

/**
 * A sending thread's heap limit. Composing a message needs little heap (attachments are Buffers,
 * outside it); a thread that outgrows this dies alone and its emails go back to the bus.
 */
const THREAD_HEAP_MB = 64;

/**
 * SMTP pools on worker threads: composing, DKIM-signing and writing each message (as much CPU as
 * the rest of the pipeline around it) leaves the event loop that serves the API and the bus. Errors
 * come back with the fields the sender classifies them by; an egress refusal is an EgressError
 * again. A lost thread's emails fail with ThreadLostError, which the sender hands back to the bus.
 */
export class SmtpThreads {
  private readonly pool: ThreadPool<SmtpThreadCall, SentMail>;

  constructor(settings: SmtpPoolSettings, size: number, logger: Logger, execArgv?: readonly string[]) {
    this.pool = new ThreadPool({
      name: 'smtp',
      // smtp-thread.js once built; smtp-thread.ts when run from source (with the require hook the threads inherit).
      script: join(__dirname, `smtp-thread${extname(__filename)}`),
      size,
      workerData: settings,
      maxHeapMb: THREAD_HEAP_MB,
      logger,
      ...(execArgv !== undefined ? { execArgv } : {}),
    });
  }

  /** Resolves once every thread loaded; rejects if one cannot, or after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<void> {
    await withTimeout(this.pool.ready(), timeoutMs).catch((error: Error) => {
      throw new Error(`the SMTP threads did not start: ${error.message}`);
    });
  }

  probe(): Promise<void> {
    return this.pool.probe();
  }

  async send(relay: Relay, mail: Mail.Options, key: string): Promise<SentMail> {
    try {
      return await this.pool.call({ relay, key, mail });
    } catch (error) {
      if (error instanceof Error && error.name === 'EgressError') throw new EgressError(error.message);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
